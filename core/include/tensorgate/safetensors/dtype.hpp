#pragma once
// safetensors dtypes. The enumerators are in canonical writer order (STC1: the reverse of the
// reference library's enumeration, larger alignment first), so `Dtype` order *is* that order.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tensorgate {

enum class Dtype : std::uint8_t {
  U64, I64, F64, C64, F32, U32, I32, BF16, F16, U16, I16,
  F8_E5M2FNUZ, F8_E4M3FNUZ, F8_E8M0, F8_E4M3, F8_E5M2, I8, U8,
  F6_E3M2, F6_E2M3, F4, BOOL,
};
inline constexpr std::size_t kDtypeCount = 22;

// A version of the reference library (the Rust `safetensors` crate).
struct Version {
  std::uint8_t major = 0, minor = 0, patch = 0;
  friend constexpr auto operator<=>(const Version&, const Version&) = default;
};

struct DtypeInfo {
  Dtype dtype;
  std::string_view name;  // as written in headers, case-sensitive
  std::uint32_t bits;     // 4, 6, 8, 16, 32 or 64
  Version since;          // first reference version that loads it
};

const DtypeInfo& dtype_info(Dtype d);
std::span<const DtypeInfo> all_dtypes();  // in canonical order
std::optional<Dtype> dtype_from_name(std::string_view name);

// The oldest reference version with today's checks; files with only the oldest dtypes load there.
inline constexpr Version kOldestCheckedReference{0, 3, 0};

}  // namespace tensorgate
