#pragma once
// msgpack's item headers (github.com/msgpack/msgpack, spec.md): the type byte, how many bytes
// of header follow it, and what the whole header says. A header is at most 9 bytes (the type
// byte and a 64-bit number, or ext32's 4-byte length and type), so the reader gathers it whole
// before deciding; payloads (str, bin, ext data) are read or skipped apart.
#include <cstddef>
#include <cstdint>
#include <string>

namespace tensorgate::detail::flax {

enum class ItemKind : std::uint8_t { nil, boolean, uint, sint, float32, float64, str, bin, ext, array, map };

struct Item {
  ItemKind kind = ItemKind::nil;
  std::uint64_t offset = 0;  // of its type byte
  // A uint, a sint's bits, a bool; a str, bin or ext's length in bytes; an array or map's entries.
  std::uint64_t value = 0;
  std::int8_t ext_type = 0;
};

// Bytes of header after the type byte `b`; -1 for 0xc1, which msgpack never uses.
int head_size(unsigned char b);

// The item whose type byte is `b` and whose header's other bytes are `head` (head_size(b) of them).
Item decode_item(unsigned char b, const unsigned char* head, std::uint64_t offset);

// "a map", "a str", "an ext": for messages.
const char* kind_name(ItemKind k);
// A scalar as a path component or a message's text ("12", "-3", "true", "nil").
std::string scalar_text(const Item& it);

// UTF-8 checked as it streams, cut anywhere: what Python's strict decoder accepts (no overlong
// forms, no surrogates, nothing past U+10FFFF). msgpack-python with raw=False, as flax unpacks,
// refuses a str that is not.
class Utf8Stream {
 public:
  void feed(const unsigned char* p, std::size_t n);
  bool ok() const { return !bad_ && need_ == 0; }
  bool bad() const { return bad_; }

 private:
  int need_ = 0;
  unsigned char lo_ = 0x80, hi_ = 0xbf;
  bool bad_ = false;
};

inline bool is_int(const Item& it) { return it.kind == ItemKind::uint || it.kind == ItemKind::sint; }
inline bool is_number(const Item& it) { return is_int(it) || it.kind == ItemKind::float32 || it.kind == ItemKind::float64; }
inline bool is_negative(const Item& it) { return it.kind == ItemKind::sint && static_cast<std::int64_t>(it.value) < 0; }

}  // namespace tensorgate::detail::flax
