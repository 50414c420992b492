// The kept scalars of a GGUF file read as values: numbers for the checks against a config (the
// conversion audit, the diff's name map) and text for the diff's metadata keys.
#include <bit>

#include "common/number_text.hpp"
#include "gguf/metadata_facts.hpp"
#include "tensorgate/json_writer.hpp"

namespace tensorgate {

using namespace detail::gguf;

std::optional<GgufScalarValue> gguf_scalar_value(const GgufScalar& s) {
  static constexpr unsigned kBits[] = {8, 8, 16, 16, 32, 32, 0, 0, 0, 0, 64, 64, 0};
  GgufScalarValue v;
  if (s.type == kF32 || s.type == kF64) {
    v.real = s.type == kF32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(s.bits)))
                            : std::bit_cast<double>(s.bits);
    v.f64 = s.type == kF64;
    v.text = detail::exact(*v.real) + (v.f64 ? " (f64)" : " (f32)");
    return v;
  }
  if (s.type >= kValueTypeCount || kBits[s.type] == 0) return std::nullopt;
  const unsigned bits = kBits[s.type];
  v.integer = true;
  v.negative = is_signed_type(s.type) && ((s.bits >> (bits - 1)) & 1);
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  v.magnitude = v.negative ? ((~s.bits & mask) + 1) & mask : s.bits;
  v.text = (v.negative ? "-" : "") + std::to_string(v.magnitude);
  return v;
}

const GgufScalar* find_gguf_scalar(const GgufSummary& g, std::string_view key) {
  for (const GgufScalar& s : g.scalars)
    if (s.key == key) return &s;
  return nullptr;
}

std::string gguf_scalar_text(const GgufScalar& s) {
  if (s.type == kString) {
    std::string out;
    append_json_string_lossy(out, s.text);
    return out;
  }
  if (s.type == kBool) return s.bits ? "true" : "false";
  const auto v = gguf_scalar_value(s);
  if (!v) return "?";
  return v->real ? v->text : v->text + " (" + std::string(value_type_name(s.type)) + ")";
}

}  // namespace tensorgate
