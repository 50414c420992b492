#pragma once
// Little-endian fields of zip records (PKWARE APPNOTE 6.3: all fields are little-endian).
#include <cstdint>

#include "common/little_endian.hpp"

namespace tensorgate::detail::zip {

inline constexpr std::uint32_t kSaturated32 = 0xffffffffu;  // "see the zip64 extra field"
inline constexpr std::uint16_t kSaturated16 = 0xffffu;
inline constexpr std::uint16_t kZip64ExtraId = 0x0001;

// General-purpose flags.
inline constexpr std::uint16_t kEncrypted = 1u << 0, kHasDescriptor = 1u << 3, kStrongEncryption = 1u << 6,
                               kCentralEncrypted = 1u << 13;

}  // namespace tensorgate::detail::zip
