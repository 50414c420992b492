#pragma once
// Finding the end of a stored entry written with general-purpose bit 3 (sizes after the data):
// the first data descriptor (PK\x07\x08, CRC-32, compressed and uncompressed size, 4 bytes each,
// or 8 in the zip64 form) whose recorded sizes equal the bytes since the entry began. The entry
// streams by in chunks of any size; the last descriptor-length - 1 bytes of a chunk are held
// back until the next one says whether a descriptor starts among them, so data bytes are only
// handed on once it is certain they are data. A hint (where the archive's own data.pkl says
// the storage ends) lets the search look at that one position instead of every byte.
#include <array>
#include <cstdint>
#include <cstddef>
#include <functional>
#include <optional>

namespace tensorgate::detail::zip {

// The first i with p[i..i+4) == "PK\x07\x08", or n when none (SSE2 where there is SSE2).
std::size_t find_descriptor_signature(const unsigned char* p, std::size_t n);

struct Descriptor {
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0, uncompressed = 0;
};

class DescriptorSearch {
 public:
  using Sink = std::function<void(const unsigned char*, std::size_t)>;

  // `zip64`: the 24-byte form (the local header has a zip64 extra field).
  void reset(bool zip64, std::optional<std::uint64_t> hint);

  struct Step {
    std::size_t consumed = 0;  // bytes of the chunk used (through the descriptor's end when found)
    bool found = false;
  };
  // Looks at the next bytes; data bytes go to `sink` in order.
  Step feed(const unsigned char* p, std::size_t n, const Sink& sink);

  std::uint64_t data_length() const { return found_at_; }  // once found
  const Descriptor& descriptor() const { return descriptor_; }
  // The hint named a position where no descriptor is (the search went on from there).
  bool hint_missed() const { return hint_missed_; }
  std::optional<std::uint64_t> hint() const { return hint_; }
  std::size_t length() const { return width_; }

 private:
  bool check(std::uint64_t q, const unsigned char* at);
  std::optional<Step> resolve_carry(const unsigned char* p, std::size_t n, const Sink& sink);
  Step scan(const unsigned char* p, std::size_t n, const Sink& sink);
  std::uint64_t got_ = 0;  // entry bytes looked at (the position of the next chunk's first byte)
  std::array<unsigned char, 24> carry_{};
  std::size_t carry_n_ = 0;  // the last bytes, whose positions are not yet resolved
  std::size_t width_ = 16;
  std::optional<std::uint64_t> hint_;
  std::uint64_t search_from_ = 0;  // positions before it are data without looking
  bool hint_missed_ = false;
  std::uint64_t found_at_ = 0;
  Descriptor descriptor_;
};

}  // namespace tensorgate::detail::zip
