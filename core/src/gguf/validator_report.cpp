// GgufValidator: the end of the input, the summary and the report; the factory functions.
#include <algorithm>
#include <array>

#include "common/report_of.hpp"
#include "common/saturating.hpp"
#include "gguf/validator.hpp"
#include "table_access.hpp"

namespace tensorgate::detail::gguf {
namespace {

std::uint64_t element_count(const GgufTensorTable::Record& r) {
  std::uint64_t n = 1;
  for (unsigned i = 0; i < r.n_dims; ++i) n *= r.dims[i];  // exact: checked by GG4
  return n;
}

}  // namespace

Report GgufValidator::finish() {
  if (state_ != State::finished) {
    add_end_of_input_findings();
    if (!aborted_ && !findings_.has_errors() && layout_.summary) {
      findings_.add(Rule::ggw_llama_cpp, est_.llama_refuses.empty()
                                             ? "llama.cpp's reader loads this file"
                                             : "llama.cpp's reader refuses this file: " + est_.llama_refuses);
    }
    state_ = State::finished;
  }
  return snapshot();
}

void GgufValidator::add_end_of_input_findings() {
  if (total_ && *total_ != bytes_seen_ && !aborted_) {
    aborted_ = Aborted{"size-mismatch", "the input ended after " + std::to_string(bytes_seen_) + " bytes, " +
                                            std::to_string(*total_) + " were announced"};
    return;
  }
  // After an abort the caller may have stopped feeding: the input's end says nothing then.
  if (aborted_) return;
  const std::uint64_t file_size = bytes_seen_;
  // A count or length the end of the input refutes: report what the size hint would have
  // reported, dropping what was found after it (the hinted run never got there).
  for (unsigned i = 0; i < checkpoints_used_; ++i) {
    if (checkpoints_[i].min_end > file_size) {
      refute(checkpoints_[i], file_size);
      return;
    }
  }
  if (state_ == State::data) {
    if (!layout_.data_checked) check_data_end(file_size);
    return;
  }
  if (state_ != State::stopped) add_truncation(file_size);
}

void GgufValidator::build_summary() {
  GgufSummary s;
  s.version = header_.version;
  s.big_endian = header_.big_endian;
  s.alignment = layout_.alignment;
  s.kv_count = header_.n_kv;
  s.tensor_count = header_.n_tensors;
  s.data_offset = static_cast<std::uint64_t>(layout_.data_start);
  s.data_length = static_cast<std::uint64_t>(layout_.required_end - layout_.data_start);
  std::array<GgmlTypeTotals, 64> totals{};
  for (const auto& r : GgufTableBuilder::records(*est_.table)) {
    GgmlTypeTotals& t = totals[r.type];
    t.type = r.type;
    ++t.tensors;
    t.parameters = saturating_add(t.parameters, element_count(r));
    t.bytes = saturating_add(t.bytes, r.bytes);
  }
  for (const GgmlTypeTotals& t : totals) {
    if (t.tensors == 0) continue;
    s.by_type.push_back(t);
    s.parameters = saturating_add(s.parameters, t.parameters);
    s.bytes = saturating_add(s.bytes, t.bytes);
  }
  s.architecture = est_.facts.architecture;
  s.name = est_.facts.name;
  s.context_length = est_.facts.context_length;
  s.block_count = est_.facts.block_count;
  s.embedding_length = est_.facts.embedding_length;
  s.tokenizer_model = est_.facts.tokenizer_model;
  if (est_.facts.tokens && est_.facts.tokens->type == kArray) s.vocab_size = est_.facts.tokens->count;
  s.chat_template = est_.facts.chat_template;
  s.split_no = est_.facts.split_no;
  s.split_count = est_.facts.split_count;
  s.split_tensors_count = est_.facts.split_tensors_count;
  s.file_type = est_.facts.file_type;
  s.quantization_version = est_.facts.quantization_version;
  s.tensors = est_.table;
  s.scalars = est_.facts.scalars;
  s.cut_strings = est_.facts.cut_strings;
  layout_.summary = std::move(s);
}

Report GgufValidator::snapshot() const {
  Report r = report_of(Format::gguf, bytes_seen_, findings_, aborted_);
  if (layout_.summary && !aborted_) r.summary = *layout_.summary;
  return r;
}

}  // namespace tensorgate::detail::gguf

namespace tensorgate {

std::unique_ptr<Validator> make_gguf_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::gguf::GgufValidator>(limits, budget);
}

Report validate_gguf(std::string_view bytes, const Limits& limits) {
  return validate_whole(*make_gguf_validator(limits), bytes);
}

}  // namespace tensorgate
