#include "npy/validator.hpp"

#include <cassert>

#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::npy {

NpyValidator::NpyValidator(const Limits& limits, MemoryBudget* budget)
    : findings_(limits.max_findings), scanner_(limits, pickle::ScanSite{&findings_, 0, true, {}, nullptr, limits.policy}, budget) {}

Progress NpyValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  scanner_.feed(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
  return progress();
}

Progress NpyValidator::skip(std::uint64_t count) {
  assert(bytes_wanted() == 0 && "skip() only past the bytes the validator looks at");
  if (bytes_wanted() != 0 || finished_) return progress();
  bytes_seen_ += count;
  scanner_.skip(count);
  return progress();
}

Report NpyValidator::finish() {
  if (!finished_) scanner_.finish();
  finished_ = true;
  return report();
}

Progress NpyValidator::progress() const {
  if (scanner_.aborted()) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report NpyValidator::report() const {
  Report r = report_of(Format::npy, bytes_seen_, findings_, scanner_.aborted());
  if (auto summary = scanner_.summary()) r.summary = std::move(*summary);
  return r;
}

}  // namespace detail::npy

std::unique_ptr<Validator> make_npy_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::npy::NpyValidator>(limits, budget);
}

}  // namespace tensorgate
