#pragma once
// The bytes of a TFLite file the reader keeps: every byte that passed, except the runs it was
// told are tensor data (a Buffer's data vector nothing else needs), which are dropped, fed or
// skipped. A flatbuffer's tables reach their vtables by a signed offset, so bytes behind the
// position may still be read; a read that meets a dropped run cannot be answered (the caller
// aborts, it never guesses).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::detail::tflite {

class KeptBytes {
 public:
  // The file offset of the next byte.
  std::uint64_t position() const { return pos_; }
  std::uint64_t kept() const { return bytes_.size(); }
  void keep(std::string_view bytes) {
    bytes_.append(bytes);
    pos_ += bytes.size();
  }
  void drop(std::uint64_t count);
  // Bytes [offset, offset + length), all passed and none dropped; nullopt otherwise.
  std::optional<std::string_view> read(std::uint64_t offset, std::uint64_t length) const;
  // Little-endian scalars at a file offset; the caller has read() the range first.
  std::uint32_t u32(std::uint64_t offset) const;
  std::uint16_t u16(std::uint64_t offset) const;

 private:
  struct Hole {
    std::uint64_t start, end;   // file offsets
    std::uint64_t dropped;      // bytes dropped before `start`
  };
  std::string bytes_;
  std::vector<Hole> holes_;
  std::uint64_t pos_ = 0;
};

std::uint64_t le(std::string_view bytes);  // up to 8 bytes, little-endian

}  // namespace tensorgate::detail::tflite
