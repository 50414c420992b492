#pragma once
// The memory a parsed header's table may take from the shared budget, and the CPU time its
// parse may take (tensorgate/deadline.hpp).
//
// Why: the header's bytes are charged before they are buffered, but the table built from them
// can be several times larger ("a":0 is 6 header bytes and a 48-byte record; [1,1,1] spends
// 8 bytes a dimension for 2 of text). Without this, a 100 MB header could hold ~1 GB outside
// the service's budget. The table is charged as it grows; a refusal stops the
// parse and the validator reports the budget as the reason it could not decide.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tensorgate/deadline.hpp"
#include "tensorgate/memory_budget.hpp"

namespace tensorgate::detail {

class TableAllowance {
 public:
  static constexpr std::size_t kStep = std::size_t{1} << 20;

  // The parse asks the deadline once per this many JSON events (~0.5 ms of parsing): often
  // enough to stop within a millisecond of it, rarely enough that the clock costs nothing.
  static constexpr std::uint32_t kDeadlinePollEvents = 16384;

  explicit TableAllowance(MemoryBudget* budget, Deadline* deadline = nullptr)
      : budget_(budget), deadline_(deadline) {}

  // The table now holds `bytes`; false once the budget refused to cover them.
  bool cover(std::size_t bytes) {
    if (!budget_ || bytes <= charged_) return !refused_;
    if (refused_) return false;
    // Exact while small (a tiny budget still admits a one-tensor table), then doubling up to
    // 1 MiB steps, so a large table asks the shared budget a few hundred times, not per record.
    const std::size_t want = std::max(bytes - charged_, std::min(kStep, charged_));
    if (!budget_->try_acquire(want)) {
      refused_ = true;
      return false;
    }
    charged_ += want;
    return true;
  }

  bool refused() const { return refused_; }
  // Whether time is left (asked every kDeadlinePollEvents events); false once the deadline passed.
  bool time_left() {
    if (deadline_ && !timed_out_ && deadline_->passed()) timed_out_ = true;
    return !timed_out_;
  }
  bool timed_out() const { return timed_out_; }
  // Bytes the table may reach before the next call to cover() can change anything.
  std::size_t covered() const { return budget_ ? charged_ : SIZE_MAX; }
  std::size_t charged() const { return charged_; }

 private:
  MemoryBudget* budget_;
  Deadline* deadline_;
  std::size_t charged_ = 0;
  bool refused_ = false;
  bool timed_out_ = false;
};

}  // namespace tensorgate::detail
