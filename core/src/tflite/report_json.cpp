// The TFLite summary as JSON: the schema version, subgraphs, operator codes, tensors, buffers.
#include "tflite/report_writers.hpp"

namespace tensorgate::detail {
namespace {

void write_strings(JsonWriter& w, std::string_view key, const std::vector<std::string>& items) {
  w.key(key);
  w.begin_array();
  for (const std::string& s : items) w.string(s);
  w.end_array();
}

}  // namespace

Steps write_tflite_summary(StepContext& c, const TfliteSummary& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "tflite");
  w.field("version", std::uint64_t{s.version});
  w.field("description", s.description);
  co_await write_records(c, "subgraphs", s.subgraphs, [](JsonWriter& out, const TfliteSubgraph& g) {
    out.field("name", g.name);
    out.field("tensors", g.tensors);
    out.field("operators", g.operators);
  }, "subgraphs_not_listed", s.subgraphs_not_listed);
  co_await write_records(c, "operator_codes", s.operator_codes, [](JsonWriter& out, const TfliteOperatorCode& o) {
    out.field("name", o.name);
    out.field("builtin", std::int64_t{o.builtin});
    out.field("custom", o.custom);
    out.field("version", std::int64_t{o.version});
    out.field("uses", o.uses);
  }, "operator_codes_not_listed", s.operator_codes_not_listed);
  co_await write_records(c, "tensors", s.tensors, [](JsonWriter& out, const TfliteTensor& t) {
    out.field("name", t.name);
    out.field("subgraph", std::uint64_t{t.subgraph});
    out.field("type", t.type);
    out.key("shape");
    out.begin_array();
    for (const std::int64_t d : t.shape) out.number(d);
    out.end_array();
    out.field("buffer", std::uint64_t{t.buffer});
    out.field("bytes", t.bytes);
    out.key("data_offset");
    if (t.data_offset) out.number(*t.data_offset);
    else out.null();
  }, "tensors_not_listed", s.tensors_not_listed);
  w.field("buffers", s.buffers);
  w.field("buffer_bytes", s.buffer_bytes);
  w.field("external_buffers", s.external_buffers);
  w.field("parameters", s.parameters);
  write_strings(w, "signatures", s.signatures);
  write_strings(w, "metadata", s.metadata);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(TfliteSummary, write_tflite_summary, tflite_text_facts)
