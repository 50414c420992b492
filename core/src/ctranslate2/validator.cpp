#include "ctranslate2/validator.hpp"

#include <algorithm>
#include <cassert>

#include "common/printable.hpp"
#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::ctranslate2 {
namespace {

std::uint32_t le(std::string_view b) {
  std::uint32_t v = 0;
  for (std::size_t i = b.size(); i-- > 0;) v = (v << 8) | static_cast<unsigned char>(b[i]);
  return v;
}

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

CTranslate2Validator::CTranslate2Validator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), findings_(limits.max_findings), memory_(budget) {
  expect(Step::version, 4);
}

void CTranslate2Validator::expect(Step step, std::uint32_t bytes) {
  step_ = step;
  need_ = bytes;
  field_at_ = pos_;
  buf_.clear();
  if (bytes == 0) on_field();  // an empty field (rank 0's dims) is whole at once
}

Progress CTranslate2Validator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  std::string_view rest(reinterpret_cast<const char*>(chunk.data()), chunk.size());
  while (!rest.empty()) {
    if (!reading()) {  // past the records, or stopped: the rest is only counted
      if (step_ == Step::done && !stopped_ && trailing_at_ == 0) trailing_at_ = pos_;
      pos_ += rest.size();
      break;
    }
    if (step_ == Step::data) {
      const std::uint64_t n = std::min<std::uint64_t>(rest.size(), data_left_);
      rest.remove_prefix(static_cast<std::size_t>(n));
      count_data(n);
      continue;
    }
    const std::size_t n = std::min<std::size_t>(rest.size(), need_ - buf_.size());
    buf_.append(rest.substr(0, n));
    rest.remove_prefix(n);
    pos_ += n;
    if (buf_.size() == need_) on_field();
  }
  return progress();
}

Progress CTranslate2Validator::skip(std::uint64_t count) {
  assert((!reading() || (step_ == Step::data && count <= data_left_)) && "skip() only past the bytes the validator looks at");
  if (finished_) return progress();
  if (reading() && (step_ != Step::data || count > data_left_)) {
    // A caller that skips bytes a record needs leaves it with a hole: no guess, no verdict.
    pos_ += count;
    abort_with("ctranslate2-skipped", "bytes the reader needed were skipped by the caller; the file is not checked");
    return progress();
  }
  if (reading()) {
    count_data(count);
  } else {
    if (step_ == Step::done && !stopped_ && trailing_at_ == 0 && count > 0) trailing_at_ = pos_;
    pos_ += count;
  }
  return progress();
}

void CTranslate2Validator::count_data(std::uint64_t n) {
  pos_ += n;
  data_left_ -= n;
  if (data_left_ == 0) on_data_end();
}

void CTranslate2Validator::on_field() {
  const std::string_view b = buf_;
  switch (step_) {
    case Step::version: return on_version(le(b));
    case Step::spec_length:
      if (string_length(static_cast<std::uint16_t>(le(b)), Rule::ctr_header, "the spec name"))
        expect(Step::spec_name, static_cast<std::uint16_t>(le(b)));
      return;
    case Step::spec_name: return on_spec_name();
    case Step::revision: return on_revision(le(b));
    case Step::variable_count: return on_variable_count(le(b));
    case Step::name_length:
      if (string_length(static_cast<std::uint16_t>(le(b)), Rule::ctr_variable, "a variable's name"))
        expect(Step::name, static_cast<std::uint16_t>(le(b)));
      return;
    case Step::name: return on_name();
    case Step::rank: return on_rank(le(b));
    case Step::dims: return on_dims();
    case Step::dtype:
      var_.dtype = static_cast<std::uint8_t>(b[0]);
      return expect(Step::byte_count, 4);
    case Step::byte_count: return on_byte_count(le(b));
    case Step::alias_count: return on_alias_count(le(b));
    case Step::alias_length:
      if (string_length(static_cast<std::uint16_t>(le(b)), Rule::ctr_alias, "an alias"))
        expect(Step::alias_name, static_cast<std::uint16_t>(le(b)));
      return;
    case Step::alias_name: return on_alias_name();
    case Step::target_length:
      if (string_length(static_cast<std::uint16_t>(le(b)), Rule::ctr_alias, "an alias's target"))
        expect(Step::target_name, static_cast<std::uint16_t>(le(b)));
      return;
    case Step::target_name: return on_target_name();
    case Step::data:
    case Step::done: return;
  }
}

Report CTranslate2Validator::finish() {
  if (finished_) return report();
  finished_ = true;
  if (reading()) {
    const std::uint64_t at = step_ == Step::data ? data_at_ : field_at_;
    const std::uint64_t size = step_ == Step::data ? data_left_ + (pos_ - data_at_) : need_;
    fail(Rule::ctr_truncated,
         "the file ends at byte " + num(pos_) + ", inside " + where() + " (" + num(size) + " bytes from byte " + num(at) + ")", at);
  } else if (!stopped_ && trailing_at_ != 0) {
    fail(Rule::ctr_trailing,
         num(pos_ - trailing_at_) + " bytes follow the last record (at byte " + num(trailing_at_) +
             "): CTranslate2 stops reading there, so they are no part of the model",
         trailing_at_);
  }
  return report();
}

std::string CTranslate2Validator::where() const {
  const std::string variable = "variable " + num(variables_read_ + 1) + " of " + num(summary_.variable_count);
  switch (step_) {
    case Step::version: return "the binary version";
    case Step::spec_length:
    case Step::spec_name: return "the spec name";
    case Step::revision: return "the spec revision";
    case Step::variable_count: return "the variable count";
    case Step::name_length:
    case Step::name: return "the name of " + variable;
    case Step::rank:
    case Step::dims: return "the shape of " + variable;
    case Step::dtype:
    case Step::byte_count: return "the type and size of " + variable;
    case Step::data: return "the data of " + variable + " " + quoted(var_.name);
    case Step::alias_count: return "the alias count";
    case Step::alias_length:
    case Step::alias_name:
    case Step::target_length:
    case Step::target_name: return "alias " + num(aliases_read_ + 1) + " of " + num(summary_.alias_count);
    case Step::done: break;
  }
  return "the file";
}

Progress CTranslate2Validator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report CTranslate2Validator::report() const {
  Report r = report_of(Format::ctranslate2, pos_, findings_, aborted_);
  if (have_version_) r.summary = summary_;
  return r;
}

bool CTranslate2Validator::hold(std::uint64_t bytes) {
  if (memory_.add(bytes)) return true;
  abort_with("ctranslate2-memory-budget", "no memory left in the shared budget for the file's names", AbortKind::memory_budget);
  return false;
}

void CTranslate2Validator::fail(Rule rule, std::string message, std::uint64_t offset, std::optional<std::string_view> tensor) {
  findings_.add(rule, std::move(message), offset, tensor);
}

void CTranslate2Validator::stop(Rule rule, std::string message, std::uint64_t offset) {
  fail(rule, std::move(message), offset);
  stopped_ = true;
}

void CTranslate2Validator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  stopped_ = true;
}

}  // namespace detail::ctranslate2

std::unique_ptr<Validator> make_ctranslate2_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::ctranslate2::CTranslate2Validator>(limits, budget);
}

}  // namespace tensorgate
