#pragma once
// The resident meter: what the heap of this process holds in resident memory, allocation by
// allocation, against what a budget says is charged. Linked only into the executables that use
// it (resident_meter.cpp replaces the global operator new and delete), never into the test
// support library. tests/service_budget_truth_test.cpp is its user.
#include <cstddef>
#include <cstdint>

#include "allocator.hpp"

namespace tgtest::meter {

// Blocks from this size up are counted by their resident pages (mincore), smaller ones by their
// size: the mmap threshold of the server's allocator settings, under which such blocks are
// mapped on their own.
inline constexpr std::size_t kLargeBlockBytes = tensorgate::service::AllocatorSettings{}.mmap_threshold;

// What is charged now, in bytes; called at every check.
using Charged = std::int64_t (*)(const void* context);

// From now on, at every large allocation and every 64th small one, notes how far what the heap
// holds resident (beyond what it held at this call) passes what `charged(context)` returns.
void watch(Charged charged, const void* context);
// Stops watching; the worst excess seen.
std::int64_t stop();

// The replaced operator new and delete report here.
void noted(void* p);
void dropped(void* p);

}  // namespace tgtest::meter
