// The safetensors dtype table: names, sizes in bits, and the reference version that first loads each.
#include "tensorgate/safetensors/dtype.hpp"

#include <array>

namespace tensorgate {
namespace {

constexpr Version v030{0, 3, 0}, v041{0, 4, 1}, v060{0, 6, 0}, v070{0, 7, 0}, v080{0, 8, 0};

constexpr std::array<DtypeInfo, kDtypeCount> kDtypes{{
    {Dtype::U64, "U64", 64, v030},
    {Dtype::I64, "I64", 64, v030},
    {Dtype::F64, "F64", 64, v030},
    {Dtype::C64, "C64", 64, v070},
    {Dtype::F32, "F32", 32, v030},
    {Dtype::U32, "U32", 32, v030},
    {Dtype::I32, "I32", 32, v030},
    {Dtype::BF16, "BF16", 16, v030},
    {Dtype::F16, "F16", 16, v030},
    {Dtype::U16, "U16", 16, v030},
    {Dtype::I16, "I16", 16, v030},
    {Dtype::F8_E5M2FNUZ, "F8_E5M2FNUZ", 8, v080},
    {Dtype::F8_E4M3FNUZ, "F8_E4M3FNUZ", 8, v080},
    {Dtype::F8_E8M0, "F8_E8M0", 8, v060},
    {Dtype::F8_E4M3, "F8_E4M3", 8, v041},
    {Dtype::F8_E5M2, "F8_E5M2", 8, v041},
    {Dtype::I8, "I8", 8, v030},
    {Dtype::U8, "U8", 8, v030},
    {Dtype::F6_E3M2, "F6_E3M2", 6, v060},
    {Dtype::F6_E2M3, "F6_E2M3", 6, v060},
    {Dtype::F4, "F4", 4, v060},
    {Dtype::BOOL, "BOOL", 8, v030},
}};

static_assert([] {
  for (std::size_t i = 0; i < kDtypes.size(); ++i)
    if (static_cast<std::size_t>(kDtypes[i].dtype) != i) return false;
  return true;
}(), "kDtypes must be indexed by Dtype");

}  // namespace

const DtypeInfo& dtype_info(Dtype d) { return kDtypes[static_cast<std::size_t>(d)]; }

std::span<const DtypeInfo> all_dtypes() { return kDtypes; }

namespace {

// Names are at most 11 bytes: packed into two words they compare in two integer compares.
struct Packed {
  std::uint64_t lo = 0, hi = 0;
  constexpr bool operator==(const Packed&) const = default;
};

constexpr Packed pack(std::string_view s) {
  Packed p;
  for (std::size_t i = 0; i < s.size() && i < 16; ++i)
    (i < 8 ? p.lo : p.hi) |= std::uint64_t{static_cast<unsigned char>(s[i])} << (8 * (i % 8));
  return p;
}

constexpr auto kPacked = [] {
  std::array<Packed, kDtypeCount> out{};
  for (std::size_t i = 0; i < kDtypeCount; ++i) out[i] = pack(kDtypes[i].name);
  return out;
}();

}  // namespace

std::optional<Dtype> dtype_from_name(std::string_view name) {
  if (name.empty() || name.size() > 11) return std::nullopt;
  const Packed p = pack(name);
  for (std::size_t i = 0; i < kDtypeCount; ++i)
    if (kPacked[i] == p) return kDtypes[i].dtype;
  return std::nullopt;
}

}  // namespace tensorgate
