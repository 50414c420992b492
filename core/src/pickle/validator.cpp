#include "pickle/validator.hpp"

#include <cassert>

#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::pickle {

PickleValidator::PickleValidator(const Limits& limits, MemoryBudget* budget)
    : findings_(limits.max_findings), scanner_(limits.pickle, ScanSite{&findings_, 0, true, {}, nullptr, limits.policy}, budget) {
  scanner_.follow_joblib_arrays();  // a pickle file by itself may be a joblib.dump file
}

Progress PickleValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  scanner_.feed(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
  return progress();
}

// Every byte of a pickle stream is looked at, up to its last pickle; after that (a legacy
// stream's storages, or a stream that broke) the rest is only counted.
std::uint64_t PickleValidator::bytes_wanted() const {
  if (finished_ || scanner_.counting() || scanner_.stopped()) return 0;
  return 1 << 20;
}

// A joblib array's raw bytes: counted, never looked at.
std::uint64_t PickleValidator::bytes_skippable() const { return finished_ ? 0 : scanner_.array_bytes_left(); }

Progress PickleValidator::skip(std::uint64_t count) {
  assert((bytes_wanted() == 0 || count <= bytes_skippable()) && "skip() only past the bytes the validator looks at");
  if ((bytes_wanted() != 0 && count > bytes_skippable()) || finished_) return progress();
  bytes_seen_ += count;
  scanner_.skip(count);
  return progress();
}

Progress PickleValidator::progress() const {
  if (scanner_.aborted()) return Progress::aborted;
  if (findings_.has_errors()) return Progress::invalid;
  return Progress::need_more;
}

Report PickleValidator::report() const {
  Report r = report_of(Format::pickle, bytes_seen_, findings_, scanner_.aborted());
  if (!scanner_.charge_copy()) {
    if (!r.aborted)
      r.aborted = Aborted{"pickle-memory-budget", "no memory left in the shared budget for the report's copy of the summary",
                          AbortKind::memory_budget};
    r.valid = false;
    return r;
  }
  r.summary = scanner_.summary();
  return r;
}

Report PickleValidator::snapshot() const { return report(); }

Report PickleValidator::finish() {
  if (!finished_) {
    scanner_.finish();
    finished_ = true;
  }
  return report();
}

}  // namespace detail::pickle

std::unique_ptr<Validator> make_pickle_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::pickle::PickleValidator>(limits, budget);
}

Report validate_pickle(std::string_view bytes, const Limits& limits) {
  return validate_whole(*make_pickle_validator(limits), bytes);
}

}  // namespace tensorgate
