// GgufValidator: the end of the input, the summary and the report; the factory functions.
#include <algorithm>
#include <array>

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
    if (!aborted_ && !findings_.has_errors() && summary_) {
      findings_.add(Rule::ggw_llama_cpp, llama_refuses_.empty()
                                             ? "llama.cpp's reader loads this file"
                                             : "llama.cpp's reader refuses this file: " + llama_refuses_);
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
    if (!data_checked_) check_data_end(file_size);
    return;
  }
  if (state_ != State::stopped) add_truncation(file_size);
}

void GgufValidator::build_summary() {
  GgufSummary s;
  s.version = version_;
  s.big_endian = big_endian_;
  s.alignment = alignment_;
  s.kv_count = n_kv_;
  s.tensor_count = n_tensors_;
  s.data_offset = static_cast<std::uint64_t>(data_start_);
  s.data_length = static_cast<std::uint64_t>(required_end_ - data_start_);
  std::array<GgmlTypeTotals, 64> totals{};
  for (const auto& r : GgufTableBuilder::records(*table_)) {
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
  s.architecture = facts_.architecture;
  s.name = facts_.name;
  s.context_length = facts_.context_length;
  s.block_count = facts_.block_count;
  s.embedding_length = facts_.embedding_length;
  s.tokenizer_model = facts_.tokenizer_model;
  if (facts_.tokens && facts_.tokens->type == kArray) s.vocab_size = facts_.tokens->count;
  s.chat_template = facts_.chat_template;
  s.split_no = facts_.split_no;
  s.split_count = facts_.split_count;
  s.split_tensors_count = facts_.split_tensors_count;
  s.file_type = facts_.file_type;
  s.quantization_version = facts_.quantization_version;
  s.tensors = table_;
  s.scalars = facts_.scalars;
  s.cut_strings = facts_.cut_strings;
  summary_ = std::move(s);
}

Report GgufValidator::snapshot() const {
  Report r;
  r.format = Format::gguf;
  r.bytes_seen = bytes_seen_;
  r.findings = findings_.items();
  r.findings_dropped = findings_.dropped();
  r.aborted = aborted_;
  r.valid = !findings_.has_errors() && !aborted_;
  if (summary_ && !aborted_) r.gguf = summary_;
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
