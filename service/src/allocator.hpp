#pragma once
// How `tensorgate serve` asks glibc's malloc to hold memory (docs/service.md, "Memory").
//
// glibc's defaults suit a process whose large blocks come and go slowly: a block freed from
// mmap raises the mmap threshold to its size (up to 32 MiB), so later blocks that size come from
// the arenas, where freed pages stay resident; each thread may get an arena of its own (8 per
// core), and an arena keeps up to twice the threshold free at its top. A server whose uploads
// each reserve, fill and free tens of megabytes then holds hundreds of megabytes the budget has
// already released: 60 worst-case uploads at once peaked 350-450 MiB above the 1 GiB budget
// (bench/README.md). Fixed settings keep every block from the threshold up in its own mapping,
// resident only for the pages written (what the budget charges) and unmapped when freed.
#include <cstddef>

namespace tensorgate::service {

struct AllocatorSettings {
  // Blocks of this size and up are mapped on their own and unmapped when freed. Fixed: a set
  // value also stops glibc's threshold from rising.
  std::size_t mmap_threshold = 1 << 20;
  // Free memory at the top of an arena past this is given back to the system.
  std::size_t trim_threshold = 4 << 20;
  // At most this many arenas (each thread takes one; 0 keeps glibc's 8 per core).
  int arena_max = 4;
};

// Applies `settings` to the process. Call before any thread starts (arena_max).
void tune_allocator(const AllocatorSettings& settings = {});

}  // namespace tensorgate::service
