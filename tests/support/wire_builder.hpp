#pragma once
// Protobuf wire bytes built by hand, for the tests of the wire reader and of the formats read
// through it: what no real writer makes (broken varints, groups, lengths past the end) as well as
// what they do.
#include <cstdint>
#include <string>
#include <string_view>

namespace tgtest::wire {

inline std::string varint(std::uint64_t v) {
  std::string out;
  do {
    unsigned char b = v & 0x7f;
    v >>= 7;
    if (v) b |= 0x80;
    out.push_back(static_cast<char>(b));
  } while (v);
  return out;
}
inline std::string tag(std::uint32_t field, unsigned wire_type) { return varint(std::uint64_t{field} << 3 | wire_type); }
inline std::string field_varint(std::uint32_t field, std::uint64_t v) { return tag(field, 0) + varint(v); }
inline std::string field_len(std::uint32_t field, std::string_view bytes) {
  return tag(field, 2) + varint(bytes.size()) + std::string(bytes);
}
inline std::string le(std::uint64_t v, unsigned bytes) {
  std::string out;
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xff));
  return out;
}
inline std::string field_fixed32(std::uint32_t field, std::uint32_t v) { return tag(field, 5) + le(v, 4); }
inline std::string field_fixed64(std::uint32_t field, std::uint64_t v) { return tag(field, 1) + le(v, 8); }

}  // namespace tgtest::wire
