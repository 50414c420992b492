#include "gguf_scalar.hpp"

#include <bit>

#include "text_util.hpp"

namespace tensorgate::detail::audit {

std::optional<ScalarValue> decode_scalar(const GgufScalar& s) {
  static constexpr unsigned kBits[] = {8, 8, 16, 16, 32, 32, 0, 0, 0, 0, 64, 64, 0};
  ScalarValue v;
  if (s.type == kValueF32 || s.type == kValueF64) {
    v.real = s.type == kValueF32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(s.bits)))
                            : std::bit_cast<double>(s.bits);
    v.f64 = s.type == kValueF64;
    v.text = exact(*v.real) + (v.f64 ? " (f64)" : " (f32)");
    return v;
  }
  if (s.type >= 13 || kBits[s.type] == 0) return std::nullopt;
  const unsigned bits = kBits[s.type];
  const bool is_signed = s.type == kValueI8 || s.type == kValueI16 || s.type == kValueI32 || s.type == kValueI64;
  v.integer = true;
  v.negative = is_signed && ((s.bits >> (bits - 1)) & 1);
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  v.magnitude = v.negative ? ((~s.bits & mask) + 1) & mask : s.bits;
  v.text = (v.negative ? "-" : "") + std::to_string(v.magnitude);
  return v;
}

const GgufScalar* find_scalar(const GgufSummary& g, std::string_view key) {
  for (const GgufScalar& s : g.scalars)
    if (s.key == key) return &s;
  return nullptr;
}

}  // namespace tensorgate::detail::audit
