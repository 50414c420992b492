// The OpenVINO IR summary as JSON: the net, its layers by operation set, its Const layers and
// where their weights are, and the .bin's size once the face found it.
#include "openvino/report_writers.hpp"

namespace tensorgate::detail {

Steps write_openvino_summary(StepContext& c, const OpenVinoSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "openvino");
  w.field("ir_version", std::uint64_t{s.ir_version});
  w.field("net_name", s.net_name);
  w.field("layers", s.layers);
  w.key("layers_by_opset");
  w.begin_object();
  for (const auto& [opset, count] : s.layers_by_opset) w.field(opset, count);
  w.end_object();
  w.field("consts", s.consts);
  w.field("const_bytes", s.const_bytes);
  w.field("weights_end", s.weights_end);
  w.key("element_types");
  w.begin_array();
  for (const std::string& t : s.element_types) w.value(t);
  w.end_array();
  w.key("custom_opsets");
  w.begin_array();
  for (const std::string& t : s.custom_opsets) w.value(t);
  w.end_array();
  w.key("bin_size");
  if (s.bin_size) w.number(*s.bin_size);
  else w.null();
  if (!options.include_tensors) {
    w.end_object();
    co_return;
  }
  co_await write_records(c, "const_layers", s.const_layers, [](JsonWriter& out, const OpenVinoConst& k) {
    out.field("id", k.id);
    out.field("name", k.name);
    out.field("element_type", k.element_type);
    out.key("shape");
    write_shape(out, k.shape);
    out.field("rank", k.rank);
    out.field("offset", k.offset);
    out.field("size", k.size);
  }, "const_layers_not_listed", s.const_layers_not_listed);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(OpenVinoSummary, write_openvino_summary, openvino_text_facts)
