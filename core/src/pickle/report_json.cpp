// The pickle summary as JSON: the protocol, the pickles and opcodes scanned, every global with
// its verdict and counts, and a state dict's tensors and storages (the tensors left out with
// --no-tensors, as a safetensors inventory is).
#include "pickle/report_writers.hpp"

namespace tensorgate::detail {

Steps write_pickle_summary(StepContext& c, const PickleSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "pickle");
  w.field("protocol", s.protocol);
  w.field("pickles", s.pickles);
  w.field("opcodes", s.opcodes);
  w.field("legacy_torch", s.legacy_torch);
  w.field("trailing_bytes", s.trailing_bytes);
  w.field("joblib_arrays", s.joblib_arrays);
  w.field("joblib_array_bytes", s.joblib_array_bytes);
  if (!s.compression.empty()) {  // a compressed joblib file only
    w.field("compression", s.compression);
    w.field("compressed_bytes", s.compressed_bytes);
    w.field("inflated_bytes", s.inflated_bytes);
  }
  co_await write_records(c, "globals", s.globals, [](JsonWriter& out, const PickleGlobal& g) {
    out.field("module", g.module);
    out.field("name", g.name);
    out.field("verdict", global_verdict_name(g.verdict));
    out.field("reason", g.reason);
    out.field("imports", g.imports);
    out.field("calls", g.calls);
  }, "globals_dropped", s.globals_dropped);
  w.field("tensor_count", static_cast<std::uint64_t>(s.tensors.size()) + s.tensors_dropped);
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  if (options.include_tensors) {  // a state dict's tensors, left out with --no-tensors
    co_await write_records(c, "tensors", s.tensors, [](JsonWriter& out, const PickleTensor& t) {
      out.field("name", t.name);
      out.field("dtype", t.dtype);
      out.key("shape");
      write_shape(out, t.shape);
      out.field("parameters", t.parameters);
      out.field("bytes", t.bytes);
      out.field("storage", t.storage);
      out.field("storage_offset", t.storage_offset);
    }, "tensors_dropped", s.tensors_dropped);
  }
  // The storages the tensors point into.
  co_await write_records(c, "storages", s.storages, [](JsonWriter& out, const PickleStorage& st) {
    out.field("key", st.key);
    out.field("dtype", st.dtype);
    out.field("numel", st.numel);
    out.field("location", st.location);
    out.field("bytes", st.bytes);
  }, "storages_dropped", s.storages_dropped);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(PickleSummary, write_pickle_summary, pickle_text_facts)
