#pragma once
// The parts of an HDF5 file the reader still has to read, as (address, length) regions: HDF5
// points at its structures by file offset, while a push validator sees the file once, in order.
// Each region gathers its bytes as they pass; the bytes between regions are offered to the face to
// skip (bytes_skippable()). A region may grow once its first bytes say how long it is (an object
// header's prefix gives its chunk's size). A region that starts before the bytes already passed
// cannot be read any more: the caller decides what that means (the reader aborts).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::detail::hdf5 {

enum class RegionKind : unsigned char { signature, superblock, header, continuation, collection };

struct Region {
  std::uint64_t address = 0, length = 0;
  RegionKind kind = RegionKind::signature;
  std::uint32_t stage = 0;  // the reader's own: how far it has sized the region
  std::string bytes;        // from `address`, as they passed
  bool complete() const { return bytes.size() == length; }
};

class Regions {
 public:
  // Bytes passed so far: the file offset of the next byte.
  std::uint64_t position() const { return pos_; }
  bool empty() const { return pending_.empty(); }
  const std::vector<Region>& pending() const { return pending_; }

  // A region to read; false when it starts before the position (its bytes have passed).
  bool add(Region r);
  // How far the next feed may go before a region completes: at most `available`.
  std::uint64_t step(std::uint64_t available) const;
  // `bytes` (at the position) into every region they fall in; the position moves past them.
  // Returns the bytes the regions now hold more.
  std::uint64_t take(std::string_view bytes);
  // Bytes skipped, never seen: only where no region lies (the face skips what is offered).
  void skip(std::uint64_t count) { pos_ += count; }
  // Bytes up to the first region, when every region lies ahead; 0 inside one or when none remain.
  std::uint64_t gap() const;
  // The index of a complete region, the lowest address first, or -1.
  int next_complete() const;
  Region release(int index);
  Region& at(int index) { return pending_[static_cast<std::size_t>(index)]; }
  void clear() { pending_.clear(); }

 private:
  std::vector<Region> pending_;
  std::uint64_t pos_ = 0;
};

}  // namespace tensorgate::detail::hdf5
