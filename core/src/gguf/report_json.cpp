// The GGUF summary as JSON: snake_case fields like the safetensors summary, null for what the
// file does not say. The chat template's text is never written, only whether there is one.
#include "gguf/report_writers.hpp"

#include <algorithm>

#include "common/truncations.hpp"

namespace tensorgate::detail {
namespace {

template <typename T>
void optional_field(JsonWriter& w, std::string_view key, const std::optional<T>& v) {
  w.key(key);
  if (v) w.value(*v); else w.null();
}

std::string_view type_name(std::uint32_t id) {
  const GgmlTypeInfo* t = ggml_type_info(id);
  return t ? t->name : "unknown";
}

Steps write_tensors(StepContext& c, const GgufTensorTable& table, Truncations& cuts) {
  JsonWriter& w = c.w;
  w.begin_array();
  const std::size_t shown = static_cast<std::size_t>(std::min<std::uint64_t>(table.size(), cuts.limits().max_tensors));
  cuts.omit_tensors(table.size() - shown);
  for (std::size_t i = 0; i < shown; ++i) {
    const GgufTensorView t = table[i];
    w.begin_object();
    w.field("name", t.name);
    w.field("type", type_name(t.type));
    w.key("shape");
    w.begin_array();
    for (const std::uint64_t d : t.shape) w.number(d);
    w.end_array();
    w.field("offset", t.offset);
    w.field("bytes", t.bytes);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
}

}  // namespace

Steps write_gguf_summary(StepContext& c, const GgufSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("version", s.version);
  w.field("byte_order", s.big_endian ? "big" : "little");
  w.field("alignment", s.alignment);
  w.field("kv_count", s.kv_count);
  w.field("tensor_count", s.tensor_count);
  w.field("data_offset", s.data_offset);
  w.field("data_length", s.data_length);
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  write_type_totals(w, "types", s.by_type, [](const GgmlTypeTotals& t) { return type_name(t.type); });
  optional_field(w, "architecture", s.architecture);
  optional_field(w, "name", s.name);
  optional_field(w, "context_length", s.context_length);
  optional_field(w, "block_count", s.block_count);
  optional_field(w, "embedding_length", s.embedding_length);
  optional_field(w, "tokenizer_model", s.tokenizer_model);
  optional_field(w, "vocab_size", s.vocab_size);
  w.field("chat_template", s.chat_template);
  optional_field(w, "file_type", s.file_type);
  w.key("file_type_name");
  const std::string_view ftype = s.file_type ? gguf_file_type_name(*s.file_type) : std::string_view();
  if (ftype.empty()) w.null(); else w.string(ftype);
  optional_field(w, "quantization_version", s.quantization_version);
  optional_field(w, "split_no", s.split_no);
  optional_field(w, "split_count", s.split_count);
  optional_field(w, "split_tensors_count", s.split_tensors_count);
  Truncations cuts(options.limits);
  for (const GgufStringCut& cut : s.cut_strings) cuts.add_cut("metadata value", cut.key, cut.bytes, cut.sha256);
  if (options.include_tensors && s.tensors) {
    w.key("tensors");
    co_await write_tensors(c, *s.tensors, cuts);
  }
  cuts.write(w);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(GgufSummary, write_gguf_summary, gguf_text_facts)
