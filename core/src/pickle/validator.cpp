#include "pickle/validator.hpp"

#include <cassert>

#include "common/report_of.hpp"
#include "pickle/compressed/front.hpp"

namespace tensorgate {
namespace detail::pickle {

PickleValidator::PickleValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), budget_(budget), findings_(limits.max_findings),
      scanner_(limits.pickle, ScanSite{&findings_, 0, true, {}, nullptr, limits.policy}, budget) {
  scanner_.follow_joblib_arrays();  // a pickle file by itself may be a joblib.dump file
}

// The first bytes choose, as joblib.load's look at them does: a compressor's magic, or a pickle
// (a pickle's first byte decides at once: no magic begins with PROTO). False while undecided.
bool PickleValidator::choose(const unsigned char* p, std::size_t n) {
  held_.append(reinterpret_cast<const char*>(p), std::min(n, kLongestMagic - std::min(held_.size(), kLongestMagic)));
  const auto c = compression_of(held_, finished_);
  if (!c) return false;
  chosen_ = true;
  if (*c != Compression::none)
    compressed_ = std::make_unique<CompressedPickleValidator>(*c, limits_, budget_, false);
  return true;
}

Progress PickleValidator::feed(std::span<const std::byte> chunk) {
  if (!chosen_ && !finished_) {
    const std::size_t before = held_.size();
    if (!choose(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size())) return Progress::need_more;
    // What was held before this chunk goes first, then the whole chunk.
    const std::string earlier = held_.substr(0, before);
    held_.clear();
    held_.shrink_to_fit();
    if (!earlier.empty()) feed(std::as_bytes(std::span<const char>(earlier.data(), earlier.size())));
  }
  if (compressed_) return compressed_->feed(chunk);
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  scanner_.feed(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
  return progress();
}

// Every byte of a pickle stream is looked at, up to its last pickle; after that (a legacy
// stream's storages, or a stream that broke) the rest is only counted.
std::uint64_t PickleValidator::bytes_wanted() const {
  if (compressed_) return compressed_->bytes_wanted();
  if (finished_ || scanner_.counting() || scanner_.stopped()) return 0;
  return 1 << 20;
}

// A joblib array's raw bytes: counted, never looked at.
std::uint64_t PickleValidator::bytes_skippable() const { return finished_ || compressed_ ? 0 : scanner_.array_bytes_left(); }

Progress PickleValidator::skip(std::uint64_t count) {
  if (compressed_) return compressed_->skip(count);
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

Report PickleValidator::snapshot() const { return compressed_ ? compressed_->snapshot() : report(); }

Report PickleValidator::finish() {
  if (!chosen_ && !finished_) {  // fewer bytes than a magic: what they begin decides now
    finished_ = true;
    choose(nullptr, 0);
    finished_ = false;
    const std::string held = std::move(held_);
    held_.clear();
    if (!held.empty()) feed(std::as_bytes(std::span<const char>(held.data(), held.size())));
  }
  if (compressed_) return compressed_->finish();
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
