#pragma once
#include <cstddef>

namespace tensorgate {

// Memory shared by many validators (the service's global budget for buffered headers).
// A validator acquires a header's size before buffering it and releases it when destroyed.
// Implementations must be thread-safe; the core itself has no threads.
class MemoryBudget {
 public:
  virtual ~MemoryBudget() = default;
  virtual bool try_acquire(std::size_t bytes) = 0;
  virtual void release(std::size_t bytes) = 0;
};

}  // namespace tensorgate
