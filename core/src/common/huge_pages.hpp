#pragma once
// Asks the kernel to back a large, fresh buffer with transparent huge pages where it can.
//
// Why: filling a 10 MB header buffer takes ~2,500 page faults of 4 KiB, and in a VM each costs
// about as much as parsing a tensor entry; with 2 MiB pages it is a handful. Advice only: on
// other systems, or when THP is off, nothing changes.
#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tensorgate::detail {

// A page of the advised range is resident as soon as one of its bytes is written: whoever charges
// a buffer as it fills must charge this much ahead of what was written.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

inline void advise_huge_pages(void* data, std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = kHugePageBytes;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (begin + size) & ~(kHuge - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

}  // namespace tensorgate::detail
