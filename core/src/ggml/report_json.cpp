// The legacy GGML summary as JSON: the kind and version, the named hyperparameters, the
// vocabulary's size, whisper's mel filter shape, the tensors.
#include "ggml/report_writers.hpp"

namespace tensorgate::detail {

Steps write_ggml_summary(StepContext& c, const GgmlSummary& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "ggml");
  w.field("layout", s.kind);
  w.field("version", std::uint64_t{s.version});
  w.key("hyperparameters");
  w.begin_object();
  for (const GgmlHyperparameter& h : s.hyperparameters) w.field(h.name, h.value);
  w.end_object();
  w.field("vocab_size", s.vocab_size);
  w.key("mel_filters");
  if (s.kind == "whisper") {
    w.begin_array();
    w.number(std::uint64_t{s.mel_filters_n_mel});
    w.number(std::uint64_t{s.mel_filters_n_fft});
    w.end_array();
  } else {
    w.null();
  }
  w.field("tensor_count", s.tensor_count);
  w.field("tensor_bytes", s.tensor_bytes);
  w.field("parameters", s.parameters);
  co_await write_records(c, "tensors", s.tensors, [](JsonWriter& out, const GgmlTensor& t) {
    out.field("name", t.name);
    out.field("type", t.type);
    out.key("dims");
    write_shape(out, t.dims);
    out.field("offset", t.offset);
    out.field("bytes", t.bytes);
  }, "tensors_not_listed", s.tensors_not_listed);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(GgmlSummary, write_ggml_summary, ggml_text_facts)
