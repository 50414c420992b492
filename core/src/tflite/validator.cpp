#include "tflite/validator.hpp"

#include <algorithm>
#include <cassert>

#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::tflite {

TfliteValidator::TfliteValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), findings_(limits.max_findings), memory_(budget) {
  // The root offset and the file identifier "TFL3".
  ask(Pending{0, 8, 0, 0, 0, 0, 0, 0, Step::root});
}

// The run of tensor data at the position that no pending read needs: dropped whether it is fed
// or skipped, so that the report is the same either way.
std::uint64_t TfliteValidator::droppable() const {
  const std::uint64_t pos = kept_.position();
  if (pos >= data_end_) return 0;
  const std::uint64_t first = los_.lowest();
  if (first <= pos) return 0;
  return std::min(data_end_, first) - pos;
}

Progress TfliteValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  std::string_view rest(reinterpret_cast<const char*>(chunk.data()), chunk.size());
  while (!rest.empty()) {
    if (!reading()) break;  // nothing more to read: the rest is only counted
    if (const std::uint64_t run = droppable()) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(run, rest.size()));
      kept_.drop(n);
      rest.remove_prefix(n);
      continue;
    }
    // Up to the end of the read that completes first (settled reads all end past the position).
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(queue_.top().hi - kept_.position(), rest.size()));
    if (kept_.kept() + n > limits_.tflite.max_flatbuffer_bytes) {
      abort_with("tflite-flatbuffer-bytes", "the flatbuffer needs more than Limits::tflite.max_flatbuffer_bytes (" +
                                                std::to_string(limits_.tflite.max_flatbuffer_bytes) +
                                                " bytes) kept; the file is not checked");
      break;
    }
    if (!hold(n)) break;
    kept_.keep(rest.substr(0, n));
    rest.remove_prefix(n);
    settle();
  }
  return progress();
}

Progress TfliteValidator::skip(std::uint64_t count) {
  assert((!reading() || count <= droppable()) && "skip() only past the bytes the validator looks at");
  if (finished_) return progress();
  bytes_seen_ += count;
  if (!reading()) return progress();
  // A caller that skips bytes a read needs leaves a hole: no guess, no verdict.
  if (count > droppable()) {
    abort_with("tflite-skipped", "bytes the reader needed were skipped by the caller; the file is not checked");
    return progress();
  }
  kept_.drop(count);
  return progress();
}

Report TfliteValidator::finish() {
  if (finished_) return report();
  finished_ = true;
  if (reading()) {
    const Pending& first = queue_.top();
    fail("the file ends at byte " + std::to_string(bytes_seen_) + ", before the end of " +
             std::string(first.step == Step::root ? "the root offset and file identifier"
                         : first.type == FieldType::table ? kind_name(first.kind)
                         : first.type == FieldType::string ? "a string"
                                                           : "a vector") +
             " at byte " + std::to_string(first.at) + " (it needs the bytes up to " + std::to_string(first.hi) +
             "): an offset past the end, or a truncated file",
         first.at);
  } else if (!stopped_) {
    judge_at_end();
  }
  return report();
}

Progress TfliteValidator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report TfliteValidator::report() const {
  Report r = report_of(Format::tflite, bytes_seen_, findings_, aborted_);
  if (summary_) r.summary = *summary_;
  return r;
}

bool TfliteValidator::hold(std::uint64_t bytes) {
  if (memory_.add(bytes)) return true;
  abort_with("tflite-memory-budget", "no memory left in the shared budget for the flatbuffer", AbortKind::memory_budget);
  return false;
}

void TfliteValidator::fail(std::string message, std::uint64_t offset) {
  findings_.add(Rule::tfl_flatbuffer, std::move(message), offset);
  stopped_ = true;
  queue_ = {};
  los_.clear();
}

void TfliteValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  stopped_ = true;
  queue_ = {};
  los_.clear();
}

}  // namespace detail::tflite

std::unique_ptr<Validator> make_tflite_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::tflite::TfliteValidator>(limits, budget);
}

}  // namespace tensorgate
