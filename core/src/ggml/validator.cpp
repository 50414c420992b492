// GgmlValidator: the byte loop (fields gathered, runs counted), the end of the input, the report.
#include "ggml/validator.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::ggml {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

GgmlValidator::GgmlValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), findings_(limits.max_findings), memory_(budget) {
  expect(Stage::magic, 4);
}

Progress GgmlValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  run(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
  return progress();
}

void GgmlValidator::run(const unsigned char* p, std::size_t n) {
  while (n > 0 && reading()) {
    const std::size_t used = step(p, n);
    p += used;
    n -= used;
    if (replay_.empty()) continue;
    // Placing an unversioned file read 24 bytes past a llama header: they are its vocabulary's,
    // read again in their place, before the rest of the chunk. Placing happens once, so a replay
    // never asks for another.
    std::string again;
    again.swap(replay_);
    const auto* q = reinterpret_cast<const unsigned char*>(again.data());
    std::size_t m = again.size();
    while (m > 0 && reading()) {
      const std::size_t u = step(q, m);
      q += u;
      m -= u;
    }
  }
}

std::size_t GgmlValidator::step(const unsigned char* p, std::size_t n) {
  if (counted_run()) {
    const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(n, run_));
    run_ -= take;
    pos_ += take;
    if (run_ == 0) on_run_end();
    return take;
  }
  if (stage_ == Stage::token_len && have_ == 0) {
    if (const std::size_t used = fast_tokens(p, n)) return used;
  }
  if (stage_ == Stage::name) {
    const std::size_t take = std::min<std::size_t>(n, name_len_ - name_.size());
    name_.append(reinterpret_cast<const char*>(p), take);
    pos_ += take;
    if (name_.size() == name_len_) on_name();
    return take;
  }
  if (have_ == 0) field_at_ = pos_;
  const std::size_t take = std::min(n, need_ - have_);
  std::memcpy(buf_.data() + have_, p, take);
  have_ += take;
  pos_ += take;
  if (have_ == need_) on_field();
  return take;
}

Progress GgmlValidator::skip(std::uint64_t count) {
  assert((!reading() || count <= bytes_skippable()) && "skip() only past the bytes the validator looks at");
  if (finished_) return progress();
  bytes_seen_ += count;
  if (!reading() || count == 0) return progress();
  if (!counted_run() || count > run_) {
    abort_with("ggml-skipped", "bytes the reader needed were skipped by the caller; the file is not checked");
    return progress();
  }
  run_ -= count;
  pos_ += count;
  if (run_ == 0) on_run_end();
  return progress();
}

void GgmlValidator::expect(Stage s, std::size_t bytes) {
  if (!reading()) return;  // a stop is final
  assert(bytes > 0 && bytes <= buf_.size());
  stage_ = s;
  need_ = bytes;
  have_ = 0;
}

void GgmlValidator::count(Stage s, std::uint64_t bytes) {
  if (!reading()) return;
  stage_ = s;
  run_ = bytes;
  have_ = 0;
  if (bytes == 0) on_run_end();
}

std::int32_t GgmlValidator::int_at(std::size_t i) const {
  std::uint32_t v = 0;
  for (std::size_t b = 4; b-- > 0;) v = (v << 8) | buf_[4 * i + b];
  return static_cast<std::int32_t>(v);
}

void GgmlValidator::on_field() {
  switch (stage_) {
    case Stage::magic: return on_magic();
    case Stage::version: return on_version();
    case Stage::probe: return place(false);
    case Stage::hparams: return start_llama();
    case Stage::vocab_count: {
      const std::int32_t n = int_at(0);
      if (n < 0) return fail(Rule::gl_header, "the vocabulary count is negative (" + std::to_string(n) + ")", field_at_);
      return on_vocab_count(static_cast<std::uint64_t>(n));
    }
    case Stage::token_len: return on_token_len();
    case Stage::token_score: return next_token();
    case Stage::record_head: return on_record_head();
    case Stage::dims: return on_dims();
    case Stage::pad: return on_pad();
    default: return;
  }
}

void GgmlValidator::on_run_end() {
  switch (stage_) {
    case Stage::mel_data: return expect(Stage::vocab_count, 4);
    case Stage::token_bytes:
      if (scores_) return expect(Stage::token_score, 4);
      return next_token();
    case Stage::data: return start_record();
    default: return;
  }
}

Report GgmlValidator::finish() {
  if (finished_) return report();
  finished_ = true;
  if (stage_ == Stage::probe) {
    place(true);
    if (!replay_.empty()) {
      std::string again;
      again.swap(replay_);
      run(reinterpret_cast<const unsigned char*>(again.data()), again.size());
    }
  }
  finish_at_end();
  return report();
}

// Where the input ended: nowhere but between two tensor records is a whole file.
void GgmlValidator::finish_at_end() {
  const std::string at = "the file ends at byte " + num(pos_);
  // A field not begun starts where the input ended (field_at_ is the last one's start).
  const std::uint64_t field = have_ ? field_at_ : pos_;
  switch (stage_) {
    case Stage::stopped: return;
    case Stage::magic: return fail(Rule::gl_truncated, at + ", inside the 4-byte magic", 0);
    case Stage::version: return fail(Rule::gl_truncated, at + ", inside the version", field);
    case Stage::probe:
    case Stage::hparams: return fail(Rule::gl_truncated, at + ", inside the hyperparameters", field);
    case Stage::mel_data: return fail(Rule::gl_truncated, at + ", inside the mel filters (" + num(run_) + " bytes short)", pos_);
    case Stage::vocab_count: return fail(Rule::gl_truncated, at + ", inside the vocabulary count", field);
    case Stage::token_len:
    case Stage::token_score:
      return fail(Rule::gl_truncated, at + ", inside vocabulary entry " + num(vocab_read_ - 1) + " of " + num(summary_.vocab_size),
                  field);
    case Stage::token_bytes:
      return fail(Rule::gl_vocab, "vocabulary entry " + num(vocab_read_ - 1) + "'s length runs " + num(run_) +
                                      " bytes past the end of the file (byte " + num(pos_) + ")",
                  pos_);
    case Stage::record_head:
      if (have_ > 0)
        return fail(Rule::gl_trailing, num(have_) + " bytes after the last tensor's data (byte " + num(field) +
                                           ") that are no whole tensor record (12 bytes and more)",
                    field);
      if (const std::uint64_t want = expected_tensors(kind_, summary_.hyperparameters); summary_.tensor_count < want)
        return fail(Rule::gl_truncated, at + ", after " + num(summary_.tensor_count) + " of the " + num(want) +
                                            " tensor records its hyperparameters make (" + (kind_ == Kind::whisper ? "11 + 15 an encoder block + 24 a decoder block"
                                                                                       : "3 + 9 a layer") +
                                            "): a file cut between two records",
                    pos_);
      return;
    case Stage::dims:
    case Stage::name:
    case Stage::pad:
      return fail(Rule::gl_truncated, at + ", inside the record of tensor " + num(summary_.tensor_count) + " (at byte " +
                                          num(record_at_) + ")",
                  record_at_);
    case Stage::data:
      return fail(Rule::gl_truncated, at + ", " + num(run_) + " bytes before the end of tensor \"" + name_.substr(0, 200) +
                                          "\"'s data",
                  record_at_);
  }
}

Progress GgmlValidator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report GgmlValidator::report() const {
  Report r = report_of(Format::ggml, bytes_seen_, findings_, aborted_);
  if (!summary_.kind.empty()) r.summary = summary_;  // once the header placed the file
  return r;
}

void GgmlValidator::fail(Rule rule, std::string message, std::uint64_t offset) {
  findings_.add(rule, std::move(message), offset);
  stage_ = Stage::stopped;
  replay_.clear();
}

void GgmlValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  stage_ = Stage::stopped;
  replay_.clear();
}

}  // namespace detail::ggml

std::unique_ptr<Validator> make_ggml_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::ggml::GgmlValidator>(limits, budget);
}

}  // namespace tensorgate
