#include "header_budget.hpp"

namespace tensorgate::service {

bool HeaderBudget::try_acquire(std::size_t bytes) {
  std::uint64_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > capacity_ || held > capacity_ - bytes) return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  in_use_.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
  return true;
}

void HeaderBudget::release(std::size_t bytes) {
  held_.fetch_sub(bytes, std::memory_order_relaxed);
  in_use_.fetch_sub(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
}

}  // namespace tensorgate::service
