// The .npy summary as JSON: the header's dict, where the data is, and an object array's pickle.
#include "npy/report_writers.hpp"

namespace tensorgate::detail {

Steps write_npy_summary(StepContext& c, const NpySummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "npy");
  w.field("version", std::to_string(s.major) + "." + std::to_string(s.minor));
  w.field("descr", s.descr);
  w.field("fortran_order", s.fortran_order);
  w.key("shape");
  write_shape(w, s.shape);
  w.field("header_length", s.header_length);
  w.field("data_offset", s.data_offset);
  w.field("data_bytes", s.data_bytes);
  w.key("item_size");
  if (s.item_size) w.number(*s.item_size); else w.null();
  w.field("object", s.object);
  w.key("pickle");
  if (s.pickle) co_await write_summary_json(c, *s.pickle, options); else w.null();
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(NpySummary, write_npy_summary, npy_text_facts)
