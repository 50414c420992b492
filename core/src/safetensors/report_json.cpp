// The safetensors summary as JSON: sizes, dtypes, the metadata (keys too long to echo listed as
// cut), the architecture guess and the tensor inventory (left out with --no-tensors).
#include <algorithm>
#include <string>

#include "common/truncations.hpp"
#include "safetensors/report_writers.hpp"

namespace tensorgate::detail {
namespace {

std::string version_string(Version v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

Steps write_tensors(StepContext& c, const TensorTable& table, Truncations& cuts) {
  JsonWriter& w = c.w;
  w.begin_array();
  const std::size_t shown = static_cast<std::size_t>(std::min<std::uint64_t>(table.size(), cuts.limits().max_tensors));
  cuts.omit_tensors(table.size() - shown);
  for (std::size_t i = 0; i < shown; ++i) {
    const TensorView t = table[i];
    w.begin_object();
    w.field("name", cuts.cut(t.name, "tensor name"));
    w.field("dtype", dtype_info(t.dtype).name);
    w.key("shape");
    w.begin_array();
    for (const std::uint64_t d : t.shape) w.number(d);
    w.end_array();
    w.key("data_offsets");
    w.begin_array();
    w.number(t.begin);
    w.number(t.end);
    w.end_array();
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
}

}  // namespace

Steps write_safetensors_summary(StepContext& c, const SafetensorsSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("header_length", s.header_length);
  w.field("data_length", s.data_length);
  w.field("tensor_count", s.tensor_count);
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  write_type_totals(w, "dtypes", s.by_dtype, [](const DtypeTotals& t) { return dtype_info(t.dtype).name; });
  Truncations cuts(options.limits);
  w.key("metadata");
  w.begin_object();
  const std::size_t shown = static_cast<std::size_t>(std::min<std::uint64_t>(s.metadata_size(), options.limits.max_metadata));
  cuts.omit_metadata(s.metadata_size() - shown);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto [k, v] = s.metadata(i);
    // A key too long to echo is left out of the map and listed as cut: two long keys cut to
    // one prefix would otherwise collide.
    if (k.size() > options.limits.max_string_bytes) {
      cuts.cut(k, "metadata key", k);
      cuts.omit_metadata(1);
      continue;
    }
    w.field(k, cuts.cut(v, "metadata value", k));
    co_await c.pause();
  }
  w.end_object();
  w.key("architecture");
  if (s.architecture) w.string(*s.architecture); else w.null();
  w.key("layers");
  if (s.layers) w.number(*s.layers); else w.null();
  w.key("min_reference_version");
  if (s.min_reference_version) w.string(version_string(*s.min_reference_version)); else w.null();
  if (options.include_tensors && s.tensors) {
    w.key("tensors");
    co_await write_tensors(c, *s.tensors, cuts);
  }
  cuts.write(w);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(SafetensorsSummary, write_safetensors_summary, safetensors_text_facts)
