#pragma once
// The global budget for buffered safetensors headers (docs/service.md, "Limits"): every
// upload's validator acquires its header's size here before buffering it, so a crowd of uploads
// with 100 MB headers is refused with 503 instead of exhausting memory.
#include <atomic>
#include <cstdint>

#include "tensorgate/memory_budget.hpp"

namespace tensorgate::service {

class HeaderBudget final : public MemoryBudget {
 public:
  // `in_use` mirrors the bytes held, for the metrics gauge.
  HeaderBudget(std::uint64_t capacity, std::atomic<std::int64_t>& in_use)
      : capacity_(capacity), in_use_(in_use) {}

  bool try_acquire(std::size_t bytes) override;
  void release(std::size_t bytes) override;
  std::uint64_t held() const { return held_.load(std::memory_order_relaxed); }

 private:
  const std::uint64_t capacity_;
  std::atomic<std::uint64_t> held_{0};
  std::atomic<std::int64_t>& in_use_;
};

}  // namespace tensorgate::service
