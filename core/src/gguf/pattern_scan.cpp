#include "pattern_scan.hpp"

#include <algorithm>
#include <cstring>

namespace tensorgate::detail::gguf {

void PatternScan::search(std::string_view text) {
  for (std::size_t i = 0; i < kPatterns.size(); ++i)
    if (!(found_ & (1u << i)) && text.find(kPatterns[i]) != std::string_view::npos) found_ |= 1u << i;
}

void PatternScan::feed(std::string_view piece) {
  // A pattern split between pieces lies inside the kept tail plus the piece's first kKeep bytes.
  const std::size_t head = std::min(piece.size(), kKeep);
  std::memcpy(tail_.data() + tail_len_, piece.data(), head);
  search(std::string_view(tail_.data(), tail_len_ + head));
  search(piece);
  // Keep the last kKeep bytes of everything so far.
  const std::size_t total = tail_len_ + head;
  if (piece.size() >= kKeep) {
    std::memcpy(tail_.data(), piece.data() + piece.size() - kKeep, kKeep);
    tail_len_ = kKeep;
  } else {
    const std::size_t keep = std::min(total, kKeep);
    std::memmove(tail_.data(), tail_.data() + total - keep, keep);
    tail_len_ = keep;
  }
}

std::string PatternScan::found_list() const {
  std::string out;
  for (std::size_t i = 0; i < kPatterns.size(); ++i) {
    if (!(found_ & (1u << i))) continue;
    if (!out.empty()) out += ", ";
    out += kPatterns[i];
  }
  return out;
}

}  // namespace tensorgate::detail::gguf
