#include "hdf5/regions.hpp"

#include <algorithm>

namespace tensorgate::detail::hdf5 {

bool Regions::add(Region r) {
  if (r.address < pos_) return false;
  pending_.push_back(std::move(r));
  return true;
}

// The feed stops where a region completes, so that what its bytes say (a continuation block's
// address, a region's full length) is known before the bytes after it pass.
std::uint64_t Regions::step(std::uint64_t available) const {
  std::uint64_t n = available;
  for (const Region& r : pending_) {
    const std::uint64_t end = r.address + r.length;
    if (end > pos_) n = std::min(n, end - pos_);
  }
  return n;
}

std::uint64_t Regions::take(std::string_view bytes) {
  const std::uint64_t end = pos_ + bytes.size();
  std::uint64_t held = 0;
  for (Region& r : pending_) {
    const std::uint64_t lo = std::max(pos_, r.address), hi = std::min(end, r.address + r.length);
    if (lo >= hi) continue;
    r.bytes.append(bytes.substr(static_cast<std::size_t>(lo - pos_), static_cast<std::size_t>(hi - lo)));
    held += hi - lo;
  }
  pos_ = end;
  return held;
}

std::uint64_t Regions::gap() const {
  std::uint64_t first = UINT64_MAX;
  for (const Region& r : pending_) first = std::min(first, r.address);
  return first == UINT64_MAX || first <= pos_ ? 0 : first - pos_;
}

int Regions::next_complete() const {
  int best = -1;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (!pending_[i].complete()) continue;
    if (best < 0 || pending_[i].address < pending_[static_cast<std::size_t>(best)].address) best = static_cast<int>(i);
  }
  return best;
}

Region Regions::release(int index) {
  Region r = std::move(pending_[static_cast<std::size_t>(index)]);
  pending_.erase(pending_.begin() + index);
  return r;
}

}  // namespace tensorgate::detail::hdf5
