#pragma once
// Little-endian fields of zip records (PKWARE APPNOTE 6.3: all fields are little-endian).
#include <cstdint>

namespace tensorgate::detail::zip {

inline std::uint16_t le16(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
inline std::uint32_t le32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
inline std::uint64_t le64(const unsigned char* p) {
  return static_cast<std::uint64_t>(le32(p)) | (static_cast<std::uint64_t>(le32(p + 4)) << 32);
}

inline constexpr std::uint32_t kSaturated32 = 0xffffffffu;  // "see the zip64 extra field"
inline constexpr std::uint16_t kSaturated16 = 0xffffu;
inline constexpr std::uint16_t kZip64ExtraId = 0x0001;

// General-purpose flags.
inline constexpr std::uint16_t kEncrypted = 1u << 0, kHasDescriptor = 1u << 3, kStrongEncryption = 1u << 6,
                               kCentralEncrypted = 1u << 13;

}  // namespace tensorgate::detail::zip
