// The resident meter (resident_meter.hpp): this file replaces the global operator new and
// delete of the executable it is linked into.
#include "resident_meter.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <new>

namespace tgtest::meter {
namespace {

// What the heap holds in resident memory: small blocks at their usable size, and blocks of
// kLargeBlockBytes and up (mapped on their own under the server's allocator settings) at the
// pages written since they were allocated, which is what a reserved buffer costs while it fills.
constexpr std::size_t kMaxLarge = 512;
struct Block {
  void* p = nullptr;
  std::size_t size = 0;
  std::int64_t resident_before = 0;  // already resident when allocated (reused free memory)
};
Block large[kMaxLarge];
std::int64_t small_live = 0;
std::size_t allocations = 0;

// While watching: what is charged, what was resident before, the worst excess.
Charged charged = nullptr;
const void* charged_context = nullptr;
std::int64_t base = 0;
std::int64_t worst_excess = 0;

std::int64_t pages_in_core(const Block& b) {
  static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(b.p) & ~(page - 1);
  const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(b.p) + b.size + page - 1) & ~(page - 1);
  static unsigned char in_core[1 << 16];  // 256 MiB of pages at most, checked below
  const std::size_t pages = (last - first) / page;
  if (pages > sizeof in_core) std::abort();
  if (mincore(reinterpret_cast<void*>(first), last - first, in_core) != 0) std::abort();
  std::int64_t n = 0;
  for (std::size_t i = 0; i < pages; ++i) n += in_core[i] & 1;
  return n * static_cast<std::int64_t>(page);
}

// What a large block made resident since it was allocated: a block glibc carves from free memory
// it already had (after earlier tests) costs the process nothing new.
std::int64_t resident(const Block& b) { return std::max<std::int64_t>(0, pages_in_core(b) - b.resident_before); }

std::int64_t held_now() {
  std::int64_t total = small_live;
  for (const Block& b : large)
    if (b.p) total += resident(b);
  return total;
}

void check() {
  if (charged) worst_excess = std::max(worst_excess, held_now() - base - charged(charged_context));
}

}  // namespace

void noted(void* p) {
  if (!p) throw std::bad_alloc();
  const std::size_t size = malloc_usable_size(p);
  if (size < kLargeBlockBytes) {
    small_live += static_cast<std::int64_t>(size);
    // Small blocks add up slowly: every 64th is enough to see the sum.
    if (++allocations % 64 == 0) check();
    return;
  }
  Block* slot = std::find_if(std::begin(large), std::end(large), [](const Block& b) { return !b.p; });
  if (slot == std::end(large)) std::abort();
  *slot = {p, size, 0};
  slot->resident_before = pages_in_core(*slot);
  check();
}

void dropped(void* p) {
  if (!p) return;
  const std::size_t size = malloc_usable_size(p);
  if (size < kLargeBlockBytes) {
    small_live -= static_cast<std::int64_t>(size);
  } else {
    // Not checked here: an owner gives its charge back before it frees, for an instant
    // holding more than it charges.
    Block* b = std::find_if(std::begin(large), std::end(large), [p](const Block& x) { return x.p == p; });
    if (b != std::end(large)) *b = {};
  }
  std::free(p);
}

void watch(Charged what, const void* context) {
  base = held_now();
  worst_excess = 0;
  charged_context = context;
  charged = what;
}

std::int64_t stop() {
  charged = nullptr;
  return worst_excess;
}

}  // namespace tgtest::meter

void* operator new(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  tgtest::meter::noted(p);
  return p;
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  const std::size_t align = static_cast<std::size_t>(a);
  void* p = std::aligned_alloc(align, (n + align - 1) & ~(align - 1));
  tgtest::meter::noted(p);
  return p;
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void operator delete(void* p) noexcept { tgtest::meter::dropped(p); }
void operator delete[](void* p) noexcept { tgtest::meter::dropped(p); }
void operator delete(void* p, std::size_t) noexcept { tgtest::meter::dropped(p); }
void operator delete[](void* p, std::size_t) noexcept { tgtest::meter::dropped(p); }
void operator delete(void* p, std::align_val_t) noexcept { tgtest::meter::dropped(p); }
void operator delete[](void* p, std::align_val_t) noexcept { tgtest::meter::dropped(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { tgtest::meter::dropped(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { tgtest::meter::dropped(p); }
