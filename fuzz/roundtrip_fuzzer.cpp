// FuzzedDataProvider builds tensors (names of any bytes, every dtype, zero-size and scalar
// shapes, metadata) that the canonical writer serializes: the validator must accept the file,
// call it canonical, and give back the same tensors and bytes.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/safetensors/writer.hpp"

namespace {

struct Built {
  std::vector<std::string> data;  // owns the tensors' bytes
  std::vector<tensorgate::TensorSpec> tensors;
  tensorgate::Metadata metadata;
};

tensorgate::TensorSpec make_tensor(FuzzedDataProvider& in, std::vector<std::string>& storage) {
  tensorgate::TensorSpec t;
  t.name = in.ConsumeRandomLengthString(48);
  const auto dtypes = tensorgate::all_dtypes();
  t.dtype = dtypes[in.ConsumeIntegralInRange<std::size_t>(0, dtypes.size() - 1)].dtype;
  const std::size_t ndims = in.ConsumeIntegralInRange<std::size_t>(0, 4);
  std::uint64_t elements = 1;
  for (std::size_t d = 0; d < ndims; ++d) {
    t.shape.push_back(in.ConsumeIntegralInRange<std::uint64_t>(0, 6));
    elements *= t.shape.back();
  }
  const std::uint64_t bits = elements * tensorgate::dtype_info(t.dtype).bits;
  storage.push_back(in.ConsumeBytesAsString(static_cast<std::size_t>((bits + 7) / 8)));
  storage.back().resize(static_cast<std::size_t>((bits + 7) / 8), '\x5a');
  t.data = std::as_bytes(std::span<const char>(storage.back().data(), storage.back().size()));
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Built b;
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, 12);
  b.data.reserve(count);
  for (std::size_t i = 0; i < count; ++i) b.tensors.push_back(make_tensor(in, b.data));
  const std::size_t meta = in.ConsumeIntegralInRange<std::size_t>(0, 3);
  for (std::size_t i = 0; i < meta; ++i)
    b.metadata.emplace_back(in.ConsumeRandomLengthString(16), in.ConsumeRandomLengthString(32));

  const auto written = tensorgate::write_safetensors(b.tensors, b.metadata);
  if (!written.ok()) return 0;  // duplicates, invalid UTF-8, or sub-byte sizes: refused by design

  const auto report = tensorgate::validate_safetensors(written.bytes);
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.valid, "written-file-is-valid", tgfuzz::render(report));
  tgfuzz::require(report.canonical == true, "written-file-is-canonical", tgfuzz::render(report));
  const auto& table = *report.summary.get<tensorgate::SafetensorsSummary>()->tensors;
  tgfuzz::require(table.size() == b.tensors.size(), "same-tensor-count");
  const std::string_view buffer = std::string_view(written.bytes).substr(8 + report.summary.get<tensorgate::SafetensorsSummary>()->header_length);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto t = table[i];
    for (const auto& spec : b.tensors) {
      if (spec.name != t.name) continue;
      tgfuzz::require(spec.dtype == t.dtype, "same-dtype", spec.name);
      tgfuzz::require(std::equal(spec.shape.begin(), spec.shape.end(), t.shape.begin(), t.shape.end()), "same-shape", spec.name);
      const std::string_view bytes = buffer.substr(t.begin, t.end - t.begin);
      tgfuzz::require(std::equal(bytes.begin(), bytes.end(), reinterpret_cast<const char*>(spec.data.data()),
                                 reinterpret_cast<const char*>(spec.data.data()) + spec.data.size()),
                      "same-bytes", spec.name);
      seen.insert(spec.name);
    }
  }
  tgfuzz::require(seen.size() == b.tensors.size(), "every-tensor-given-back");
  return 0;
}
