// The pickle summary as JSON: the protocol, the pickles and opcodes scanned, every global with
// its verdict and counts, and a state dict's tensors and storages (the tensors left out with
// --no-tensors, as a safetensors inventory is).
#include "report/kinds_json.hpp"

namespace tensorgate::detail {
namespace {

// "globals", each with its verdict and counts.
Steps write_pickle_globals(StepContext& c, const PickleSummary& s) {
  JsonWriter& w = c.w;
  w.key("globals");
  w.begin_array();
  for (const PickleGlobal& g : s.globals) {
    w.begin_object();
    w.field("module", g.module);
    w.field("name", g.name);
    w.field("verdict", global_verdict_name(g.verdict));
    w.field("reason", g.reason);
    w.field("imports", g.imports);
    w.field("calls", g.calls);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
  w.field("globals_dropped", s.globals_dropped);
}

// A state dict's tensors (left out with --no-tensors).
Steps write_pickle_tensors(StepContext& c, const PickleSummary& s) {
  JsonWriter& w = c.w;
  w.key("tensors");
  w.begin_array();
  for (const PickleTensor& t : s.tensors) {
    w.begin_object();
    w.field("name", t.name);
    w.field("dtype", t.dtype);
    w.key("shape");
    write_shape(w, t.shape);
    w.field("parameters", t.parameters);
    w.field("bytes", t.bytes);
    w.field("storage", t.storage);
    w.field("storage_offset", t.storage_offset);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
  w.field("tensors_dropped", s.tensors_dropped);
}

// The storages the tensors point into.
Steps write_pickle_storages(StepContext& c, const PickleSummary& s) {
  JsonWriter& w = c.w;
  w.key("storages");
  w.begin_array();
  for (const PickleStorage& st : s.storages) {
    w.begin_object();
    w.field("key", st.key);
    w.field("dtype", st.dtype);
    w.field("numel", st.numel);
    w.field("location", st.location);
    w.field("bytes", st.bytes);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
  w.field("storages_dropped", s.storages_dropped);
}

}  // namespace

Steps write_pickle_summary(StepContext& c, const PickleSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "pickle");
  w.field("protocol", s.protocol);
  w.field("pickles", s.pickles);
  w.field("opcodes", s.opcodes);
  w.field("legacy_torch", s.legacy_torch);
  w.field("trailing_bytes", s.trailing_bytes);
  co_await write_pickle_globals(c, s);
  w.field("tensor_count", static_cast<std::uint64_t>(s.tensors.size()) + s.tensors_dropped);
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  if (options.include_tensors) co_await write_pickle_tensors(c, s);
  co_await write_pickle_storages(c, s);
  w.end_object();
}

}  // namespace tensorgate::detail
