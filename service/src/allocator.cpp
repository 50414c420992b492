#include "allocator.hpp"

#include <malloc.h>

namespace tensorgate::service {

void tune_allocator(const AllocatorSettings& settings) {
  ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(settings.mmap_threshold));
  ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(settings.trim_threshold));
  if (settings.arena_max > 0) ::mallopt(M_ARENA_MAX, settings.arena_max);
}

}  // namespace tensorgate::service
