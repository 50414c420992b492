#pragma once
// Memory shared by many validators: the service's budget for everything uploads hold, the
// CLI's --memory-budget. A validator charges what it buffers and parses (a header, its table,
// GGUF keys and names) as it grows, and releases it when destroyed; a refusal stops it with
// Report::aborted (AbortKind::memory_budget), a capacity answer, never a verdict.
// Implementations must be thread-safe; the core itself has no threads.
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace tensorgate {

class MemoryBudget {
 public:
  virtual ~MemoryBudget() = default;
  virtual bool try_acquire(std::size_t bytes) = 0;
  virtual void release(std::size_t bytes) = 0;
};

// A fixed capacity, counted with atomics.
class CountingBudget : public MemoryBudget {
 public:
  explicit CountingBudget(std::uint64_t capacity) : capacity_(capacity) {}

  bool try_acquire(std::size_t bytes) override {
    std::uint64_t held = held_.load(std::memory_order_relaxed);
    do {
      if (bytes > capacity_ || held > capacity_ - bytes) return false;
    } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
    note_peak(held + bytes);
    return true;
  }
  void release(std::size_t bytes) override { held_.fetch_sub(bytes, std::memory_order_relaxed); }
  // Charges even past the capacity (memory already taken, such as a built response).
  void acquire_anyway(std::size_t bytes) { note_peak(held_.fetch_add(bytes, std::memory_order_relaxed) + bytes); }

  std::uint64_t capacity() const { return capacity_; }
  std::uint64_t held() const { return held_.load(std::memory_order_relaxed); }
  std::uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }

 private:
  void note_peak(std::uint64_t now) {
    std::uint64_t p = peak_.load(std::memory_order_relaxed);
    while (now > p && !peak_.compare_exchange_weak(p, now, std::memory_order_relaxed)) {
    }
  }
  const std::uint64_t capacity_;
  std::atomic<std::uint64_t> held_{0};
  std::atomic<std::uint64_t> peak_{0};
};

}  // namespace tensorgate
