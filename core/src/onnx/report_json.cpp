// The ONNX summary as JSON: the model's header fields, opsets, the main graph's inputs and
// outputs, node counts by op type, the initializer inventory (left out with --no-tensors) and
// the external files.
#include "onnx/report_writers.hpp"

namespace tensorgate::detail {
namespace {

void write_value(JsonWriter& w, const OnnxValue& v) {
  w.field("name", v.name);
  w.field("type", v.type);
  w.key("shape");
  if (!v.has_shape) {
    w.null();
    return;
  }
  w.begin_array();
  for (const std::string& d : v.shape) w.string(d);
  w.end_array();
}

}  // namespace

Steps write_onnx_summary(StepContext& c, const OnnxSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "onnx");
  w.field("ir_version", s.ir_version);
  w.field("producer_name", s.producer_name);
  w.field("producer_version", s.producer_version);
  w.field("domain", s.domain);
  w.field("model_version", s.model_version);
  w.key("opsets");
  w.begin_array();
  for (const OnnxOpset& o : s.opsets) {
    w.begin_object();
    w.field("domain", o.domain);
    w.field("version", o.version);
    w.end_object();
  }
  w.end_array();
  for (const auto& [key, values] : {std::pair{"inputs", &s.inputs}, std::pair{"outputs", &s.outputs}}) {
    w.key(key);
    w.begin_array();
    for (const OnnxValue& v : *values) {
      w.begin_object();
      write_value(w, v);
      w.end_object();
    }
    w.end_array();
  }
  w.field("values_not_listed", s.values_not_listed);
  w.field("graphs", s.graphs);
  w.field("functions", s.functions);
  w.field("nodes", s.nodes);
  co_await write_records(c, "ops", s.ops, [](JsonWriter& out, const OnnxOpCount& o) {
    out.field("domain", o.domain);
    out.field("op_type", o.op_type);
    out.field("count", o.count);
  }, "ops_not_listed", s.ops_not_listed);
  w.field("initializer_count", static_cast<std::uint64_t>(s.initializers.size()) + s.initializers_not_listed);
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  write_type_totals(w, "dtypes", s.by_dtype, [](const OnnxDtypeTotals& d) -> std::string_view { return d.dtype; });
  if (options.include_tensors) {
    co_await write_records(c, "initializers", s.initializers, [](JsonWriter& out, const OnnxTensor& t) {
      out.field("name", t.name);
      out.field("dtype", t.dtype);
      out.key("shape");
      write_shape(out, t.shape);
      out.field("elements", t.elements);
      out.field("bytes", t.bytes);
      out.field("data", t.data);
      out.key("location");
      if (t.location.empty()) out.null(); else out.string(t.location);
      out.key("data_offset");
      if (t.data_offset) out.number(*t.data_offset); else out.null();
    }, "initializers_not_listed", s.initializers_not_listed);
  }
  w.key("external_files");
  w.begin_array();
  for (const OnnxExternalFile& f : s.external_files) w.string(f.location);
  w.end_array();
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(OnnxSummary, write_onnx_summary, onnx_text_facts)
