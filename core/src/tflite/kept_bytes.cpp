#include "tflite/kept_bytes.hpp"

#include <algorithm>

namespace tensorgate::detail::tflite {

std::uint64_t le(std::string_view bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

void KeptBytes::drop(std::uint64_t count) {
  if (count == 0) return;
  if (!holes_.empty() && holes_.back().end == pos_) {
    holes_.back().end += count;
  } else {
    const std::uint64_t before = holes_.empty() ? 0 : holes_.back().dropped + (holes_.back().end - holes_.back().start);
    holes_.push_back(Hole{pos_, pos_ + count, before});
  }
  pos_ += count;
}

std::optional<std::string_view> KeptBytes::read(std::uint64_t offset, std::uint64_t length) const {
  if (offset > pos_ || length > pos_ - offset) return std::nullopt;
  // The last hole that starts at or before the range's end decides: the range must lie after it.
  auto it = std::upper_bound(holes_.begin(), holes_.end(), offset + length,
                             [](std::uint64_t at, const Hole& h) { return at <= h.start; });
  std::uint64_t dropped = 0;
  if (it != holes_.begin()) {
    const Hole& h = *(it - 1);
    if (h.end > offset) return std::nullopt;
    dropped = h.dropped + (h.end - h.start);
  }
  return std::string_view(bytes_).substr(static_cast<std::size_t>(offset - dropped), static_cast<std::size_t>(length));
}

std::uint32_t KeptBytes::u32(std::uint64_t offset) const { return static_cast<std::uint32_t>(le(*read(offset, 4))); }
std::uint16_t KeptBytes::u16(std::uint64_t offset) const { return static_cast<std::uint16_t>(le(*read(offset, 2))); }

}  // namespace tensorgate::detail::tflite
