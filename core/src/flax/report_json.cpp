// The Flax summary as JSON: the arrays with their paths, the totals, the top-level keys.
#include "flax/report_writers.hpp"

namespace tensorgate::detail {

Steps write_flax_summary(StepContext& c, const FlaxSummary& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "flax");
  w.field("arrays_total", s.arrays_total);
  w.field("scalars", s.scalars);
  w.field("parameters", s.parameters);
  w.field("total_bytes", s.total_bytes);
  w.field("max_depth", std::uint64_t{s.max_depth});
  w.key("top_level_keys");
  w.begin_array();
  for (const std::string& k : s.top_level_keys) w.string(k);
  w.end_array();
  w.field("top_level_keys_total", s.top_level_keys_total);
  co_await write_records(c, "arrays", s.arrays, [](JsonWriter& out, const FlaxArray& a) {
    out.field("path", a.path);
    out.field("dtype", a.dtype);
    out.key("shape");
    write_shape(out, a.shape);
    out.field("offset", a.offset);
    out.field("bytes", a.bytes);
    out.field("chunks", a.chunks);
  }, "arrays_not_listed", s.arrays_not_listed);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(FlaxSummary, write_flax_summary, flax_text_facts)
