#pragma once
// The memory budget of all uploads together (docs/service.md, "Limits"): every upload's
// validator charges the header bytes it buffers and the table it parses from them as they grow,
// and the report answered is charged until it is written, so a crowd of uploads with 100 MB
// headers is refused with 503 instead of exhausting memory. The budget's use is mirrored in a
// metrics gauge.
#include <atomic>
#include <cstdint>

#include "tensorgate/memory_budget.hpp"

namespace tensorgate::service {

class HeaderBudget final : public CountingBudget {
 public:
  // `in_use` mirrors the bytes held, for the metrics gauge.
  HeaderBudget(std::uint64_t capacity, std::atomic<std::int64_t>& in_use)
      : CountingBudget(capacity), in_use_(in_use) {}

  bool try_acquire(std::size_t bytes) override {
    if (!CountingBudget::try_acquire(bytes)) return false;
    in_use_.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
    return true;
  }
  void release(std::size_t bytes) override {
    CountingBudget::release(bytes);
    in_use_.fetch_sub(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
  }
  // Charges a response already built (a report, bounded by the report caps) even past the
  // capacity: it is held until written, and uploads that arrive meanwhile see the budget spent.
  void acquire_anyway(std::size_t bytes) {
    CountingBudget::acquire_anyway(bytes);
    in_use_.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
  }

 private:
  std::atomic<std::int64_t>& in_use_;
};

}  // namespace tensorgate::service
