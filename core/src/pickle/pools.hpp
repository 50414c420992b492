#pragma once
// Storage for the stack machine's pools that grows by blocks and never moves what it holds. A
// pickle of small objects memoises millions of values and keeps millions of short strings;
// with vectors that double, every growth copied all of it again and faulted in twice the
// memory: three quarters of the scan's time (bench/pickle_bench.cpp). Blocks start at 16 KiB
// (a torch state dict's pickle is a few KB) and double up to 2 MiB; those are aligned so that
// the kernel can back each with one huge page. Blocks are kept across pickles and collections
// (Machine::collect), so a stream of pickles reuses them.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "common/huge_pages.hpp"

namespace tensorgate::detail::pickle {

inline constexpr std::size_t kFirstBlockBytes = std::size_t{16} << 10;
inline constexpr unsigned kGrowingBlocks = 7;  // 16 KiB .. 1 MiB, then 2 MiB each
inline constexpr std::size_t kBigBlockBytes = kFirstBlockBytes << kGrowingBlocks;

struct BlockFree {
  std::size_t align = kFirstBlockBytes;
  void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{align}); }
};
using Block = std::unique_ptr<std::byte[], BlockFree>;

// Block b holds kFirst << min(b, kGrowingBlocks) elements of T; element i lives in block
// `block_of(i)` at `i - start(block)`. Sizes are powers of two, so this is a few shifts.
template <typename T>
class BlockLayout {
 public:
  static constexpr std::uint64_t kFirst = kFirstBlockBytes / sizeof(T);
  static constexpr std::uint64_t kBig = kBigBlockBytes / sizeof(T);
  static constexpr std::uint64_t kGrowingEnd = kFirst * ((std::uint64_t{1} << kGrowingBlocks) - 1);
  static_assert(kFirstBlockBytes % sizeof(T) == 0 && std::has_single_bit(kFirst));

  static std::size_t block_of(std::uint64_t i) {
    if (i < kGrowingEnd) return static_cast<std::size_t>(std::bit_width(i / kFirst + 1) - 1);
    return kGrowingBlocks + static_cast<std::size_t>((i - kGrowingEnd) / kBig);
  }
  static std::uint64_t start(std::size_t b) {
    if (b <= kGrowingBlocks) return kFirst * ((std::uint64_t{1} << b) - 1);
    return kGrowingEnd + (b - kGrowingBlocks) * kBig;
  }
  static std::uint64_t elements(std::size_t b) { return b < kGrowingBlocks ? kFirst << b : kBig; }
};

class Blocks {
 public:
  std::byte* get(std::size_t b) const { return blocks_[b].get(); }
  std::size_t count() const { return blocks_.size(); }
  void add() {
    const std::size_t bytes = blocks_.size() < kGrowingBlocks ? kFirstBlockBytes << blocks_.size() : kBigBlockBytes;
    // 2 MiB blocks are aligned to 2 MiB for the huge page; smaller ones to their first size.
    const std::size_t align = bytes == kBigBlockBytes ? kBigBlockBytes : kFirstBlockBytes;
    auto* p = static_cast<std::byte*>(::operator new[](bytes, std::align_val_t{align}));
    if (bytes == kBigBlockBytes) advise_huge_pages(p, bytes);
    blocks_.emplace_back(p, BlockFree{align});
    memory_ += bytes;
  }
  std::uint64_t memory() const { return memory_; }

 private:
  std::vector<Block> blocks_;
  std::uint64_t memory_ = 0;
};

// Elements of T (trivially copyable) addressed by index. `memory()` counts the blocks allocated
// (what the scanner charges to its budget).
template <typename T>
class BlockVector {
  using L = BlockLayout<T>;

 public:
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return at(L::block_of(i), i); }
  const T& operator[](std::size_t i) const { return const_cast<BlockVector*>(this)->operator[](i); }

  void push_back(const T& v) {
    const std::size_t b = L::block_of(size_);
    if (b == blocks_.count()) blocks_.add();
    at(b, size_++) = v;
  }
  // Grows to n elements, the new ones set to `fill`, or shrinks to n.
  void resize(std::size_t n, const T& fill) {
    while (size_ < n) push_back(fill);
    size_ = n;
  }
  void clear() { size_ = 0; }  // blocks are kept
  std::uint64_t memory() const { return blocks_.memory(); }

 private:
  T& at(std::size_t b, std::uint64_t i) { return reinterpret_cast<T*>(blocks_.get(b))[i - L::start(b)]; }

  Blocks blocks_;
  std::size_t size_ = 0;
};

// Runs of T (a string's bytes, a tuple's items) allocated one after another; a run never
// straddles two blocks, so it stays contiguous. A run's place is its first element's index.
// Compaction (Machine::collect) moves runs toward the start in order: `place_after(cursor, n)`
// is where a run goes when everything before it ends at `cursor`, never past its old place.
template <typename T>
class BumpBlocks {
  using L = BlockLayout<T>;

 public:
  static constexpr std::size_t kLongestRun = L::kFirst;

  // Room for `n` elements (n <= kLongestRun) at the end: the run's place. An empty run takes
  // one element, so that every place points into a block.
  std::uint64_t allocate(std::size_t n) {
    const std::uint64_t place = place_after(used_, n);
    used_ = end_of(place, n);
    while (L::block_of(used_ - 1) >= blocks_.count()) blocks_.add();
    return place;
  }
  T* at(std::uint64_t place) {
    const std::size_t b = L::block_of(place);
    return reinterpret_cast<T*>(blocks_.get(b)) + (place - L::start(b));
  }
  const T* at(std::uint64_t place) const { return const_cast<BumpBlocks*>(this)->at(place); }
  static std::uint64_t place_after(std::uint64_t cursor, std::size_t n) {
    const std::size_t b = L::block_of(cursor);
    return end_of(cursor, n) <= L::start(b) + L::elements(b) ? cursor : L::start(b + 1);
  }
  static std::uint64_t end_of(std::uint64_t place, std::size_t n) { return place + (n ? n : 1); }
  void set_used(std::uint64_t used) { used_ = used; }
  std::uint64_t used() const { return used_; }  // elements, with the ends of blocks skipped
  void clear() { used_ = 0; }
  std::uint64_t memory() const { return blocks_.memory(); }

 private:
  Blocks blocks_;
  std::uint64_t used_ = 0;
};

}  // namespace tensorgate::detail::pickle
