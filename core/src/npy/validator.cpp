// The .npy push validator: one NpyScanner, its findings and summary as a Report (format npy).
#include <cassert>

#include "npy/scanner.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate {
namespace detail::npy {
namespace {

class NpyValidator final : public Validator {
 public:
  NpyValidator(const Limits& limits, MemoryBudget* budget)
      : findings_(limits.max_findings), scanner_(limits, pickle::ScanSite{&findings_, 0, true, {}}, budget) {}

  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override {
    if (finished_) return progress();
    bytes_seen_ += chunk.size();
    scanner_.feed(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
    return progress();
  }
  std::uint64_t bytes_wanted() const override { return finished_ || scanner_.in_data() ? 0 : 1 << 16; }
  Progress skip(std::uint64_t count) override {
    assert(bytes_wanted() == 0 && "skip() only past the bytes the validator looks at");
    if (bytes_wanted() != 0 || finished_) return progress();
    bytes_seen_ += count;
    scanner_.skip(count);
    return progress();
  }
  Report snapshot() const override { return report(); }
  Report finish() override {
    if (!finished_) scanner_.finish();
    finished_ = true;
    return report();
  }

 private:
  Progress progress() const {
    if (scanner_.aborted()) return Progress::aborted;
    return findings_.has_errors() ? Progress::invalid : Progress::need_more;
  }
  Report report() const {
    Report r;
    r.format = Format::npy;
    r.findings = findings_.items();
    r.findings_dropped = findings_.dropped();
    r.bytes_seen = bytes_seen_;
    r.aborted = scanner_.aborted();
    r.valid = !findings_.has_errors() && !r.aborted;
    r.npy = scanner_.summary();
    return r;
  }

  FindingList findings_;
  NpyScanner scanner_;
  std::uint64_t bytes_seen_ = 0;
  bool finished_ = false;
};

}  // namespace
}  // namespace detail::npy

std::unique_ptr<Validator> make_npy_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::npy::NpyValidator>(limits, budget);
}

}  // namespace tensorgate
