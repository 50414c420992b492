#pragma once
// What one reader holds of the shared memory budget: the bytes it uses grow, and the budget is
// asked a mebibyte at a time (at least), so that a file of many names asks a few times, not once
// a name. Everything acquired is given back when the holder goes.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tensorgate/memory_budget.hpp"

namespace tensorgate::detail {

class BudgetHold {
 public:
  explicit BudgetHold(MemoryBudget* budget) : budget_(budget) {}
  ~BudgetHold() {
    if (budget_ && held_) budget_->release(static_cast<std::size_t>(held_));
  }
  BudgetHold(const BudgetHold&) = delete;
  BudgetHold& operator=(const BudgetHold&) = delete;

  // `bytes` more used; false when the budget refuses to cover them (they stay counted as used).
  bool add(std::uint64_t bytes) {
    used_ += bytes;
    if (!budget_ || used_ <= held_) return true;
    const std::uint64_t step = std::max<std::uint64_t>(used_ - held_, kStep);
    if (step > SIZE_MAX || !budget_->try_acquire(static_cast<std::size_t>(step))) return false;
    held_ += step;
    return true;
  }
  std::uint64_t used() const { return used_; }

 private:
  static constexpr std::uint64_t kStep = 1 << 20;
  MemoryBudget* budget_;
  std::uint64_t used_ = 0, held_ = 0;
};

}  // namespace tensorgate::detail
