#include "value_compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "pairing/lossy.hpp"
#include "pairing/numbers.hpp"

namespace tensorgate::detail::diff {
namespace {

using pairing::load_u16;
using pairing::load_u32;
using pairing::load_u64;

// Elements decoded in batches of this many: a multiple of every block size the diff decodes.
constexpr std::uint64_t kBatch = 256;

// binary16 to double, exactly: normal numbers by moving the fields into a float's, subnormals
// as fraction x 2^-24 (both exact).
inline double f16_fast(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16, exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  if (exponent == 0) return (sign ? -1.0 : 1.0) * std::ldexp(static_cast<double>(fraction), -24);
  if (exponent == 0x1f) return fraction ? std::nan("") : (sign ? -HUGE_VAL : HUGE_VAL);
  return std::bit_cast<float>(sign | (exponent + 112) << 23 | fraction << 13);
}

struct LoadF32 {
  static constexpr unsigned size = 4;
  static std::uint64_t bits(const std::byte* p) { return load_u32(p); }
  static double value(std::uint64_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b)); }
};
struct LoadBF16 {
  static constexpr unsigned size = 2;
  static std::uint64_t bits(const std::byte* p) { return load_u16(p); }
  static double value(std::uint64_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }
};
struct LoadF16 {
  static constexpr unsigned size = 2;
  static std::uint64_t bits(const std::byte* p) { return load_u16(p); }
  static double value(std::uint64_t b) { return f16_fast(static_cast<std::uint16_t>(b)); }
};
struct LoadF64 {
  static constexpr unsigned size = 8;
  static std::uint64_t bits(const std::byte* p) { return load_u64(p); }
  static double value(std::uint64_t b) { return std::bit_cast<double>(b); }
};

unsigned scalar_size(ElementKind k) {
  switch (k) {
    case ElementKind::f64: case ElementKind::i64: case ElementKind::u64: return 8;
    case ElementKind::f32: case ElementKind::i32: case ElementKind::u32: return 4;
    case ElementKind::f16: case ElementKind::bf16: case ElementKind::i16: case ElementKind::u16: return 2;
    default: return 1;
  }
}

// `count` elements (whole blocks) as doubles. Integers past 2^53 are rounded.
void decode(const Encoding& e, const std::byte* p, std::uint64_t count, double* out) {
  if (e.kind == ElementKind::q8_0 || e.kind == ElementKind::q4_0) {
    for (std::uint64_t b = 0; b < count / pairing::kQBlock; ++b) {
      if (e.kind == ElementKind::q8_0) pairing::decode_q8_0(p + b * e.block_bytes, out + b * pairing::kQBlock);
      else pairing::decode_q4_0(p + b * e.block_bytes, out + b * pairing::kQBlock);
    }
    return;
  }
  const unsigned size = scalar_size(e.kind);
  for (std::uint64_t i = 0; i < count; ++i, p += size) {
    switch (e.kind) {
      case ElementKind::f64: out[i] = LoadF64::value(load_u64(p)); break;
      case ElementKind::f32: out[i] = LoadF32::value(load_u32(p)); break;
      case ElementKind::f16: out[i] = LoadF16::value(load_u16(p)); break;
      case ElementKind::bf16: out[i] = LoadBF16::value(load_u16(p)); break;
      case ElementKind::i8: out[i] = static_cast<std::int8_t>(std::to_integer<unsigned>(*p)); break;
      case ElementKind::i16: out[i] = static_cast<std::int16_t>(load_u16(p)); break;
      case ElementKind::i32: out[i] = static_cast<std::int32_t>(load_u32(p)); break;
      case ElementKind::i64: out[i] = static_cast<double>(static_cast<std::int64_t>(load_u64(p))); break;
      case ElementKind::u8: out[i] = std::to_integer<unsigned>(*p); break;
      case ElementKind::u16: out[i] = load_u16(p); break;
      case ElementKind::u32: out[i] = load_u32(p); break;
      case ElementKind::u64: out[i] = static_cast<double>(load_u64(p)); break;
      case ElementKind::boolean: out[i] = std::to_integer<unsigned>(*p) != 0; break;
      default: out[i] = 0; break;
    }
  }
}

bool same_value(double x, double y) {
  return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y) || (std::isnan(x) && std::isnan(y));
}

}  // namespace

bool comparable(const Encoding& a, const Encoding& b) {
  return a == b || (a.kind != ElementKind::opaque && b.kind != ElementKind::opaque);
}

ValueComparator::ValueComparator(const Encoding& old_enc, const Encoding& new_enc)
    : old_(old_enc), new_(new_enc), same_(old_enc == new_enc) {}

void ValueComparator::run(const std::byte* o, const std::byte* n, std::uint64_t count) {
  elements_ += count;
  if (same_) {
    if (std::memcmp(o, n, static_cast<std::size_t>(count / old_.block * old_.block_bytes)) == 0) return;
    bytes_differ_ = true;
    switch (old_.kind) {
      case ElementKind::f32: return run_same_float<LoadF32>(o, n, count);
      case ElementKind::bf16: return run_same_float<LoadBF16>(o, n, count);
      case ElementKind::f16: return run_same_float<LoadF16>(o, n, count);
      case ElementKind::f64: return run_same_float<LoadF64>(o, n, count);
      case ElementKind::opaque: return run_opaque(o, n, count);
      default: break;
    }
  }
  run_decoded(o, n, count);
}

// The common case of a fine-tuned tensor: one type, element by element on the raw bits.
template <typename Load>
void ValueComparator::run_same_float(const std::byte* o, const std::byte* n, std::uint64_t count) {
  ChangeStats s = stats_;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t a = Load::bits(o + i * Load::size), b = Load::bits(n + i * Load::size);
    if (a != b) s.note(Load::value(a), Load::value(b));
  }
  stats_ = s;
}

void ValueComparator::run_decoded(const std::byte* o, const std::byte* n, std::uint64_t count) {
  double x[kBatch], y[kBatch];
  const bool raw = same_ && old_.block == 1;  // one encoding of whole elements: bits decide
  const unsigned size = scalar_size(old_.kind);
  ChangeStats s = stats_;
  for (std::uint64_t at = 0; at < count; at += kBatch) {
    const std::uint64_t m = std::min(kBatch, count - at);
    const std::byte* po = o + at / old_.block * old_.block_bytes;
    const std::byte* pn = n + at / new_.block * new_.block_bytes;
    if (same_ && std::memcmp(po, pn, static_cast<std::size_t>(m / old_.block * old_.block_bytes)) == 0) continue;
    decode(old_, po, m, x);
    decode(new_, pn, m, y);
    for (std::uint64_t i = 0; i < m; ++i) {
      const bool differ = raw ? std::memcmp(po + i * size, pn + i * size, size) != 0 : !same_value(x[i], y[i]);
      if (differ) s.note(x[i], y[i]);
    }
  }
  stats_ = s;
}

void ValueComparator::run_opaque(const std::byte* o, const std::byte* n, std::uint64_t count) {
  const std::size_t bytes = old_.block_bytes;
  for (std::uint64_t b = 0; b < count / old_.block; ++b)
    if (std::memcmp(o + b * bytes, n + b * bytes, bytes) != 0) stats_.changed += old_.block;
}

ValueDiff ValueComparator::result() const {
  ValueDiff v;
  v.compared = true;
  v.scope = "all";
  v.identical = same_ && !bytes_differ_;
  v.elements = elements_;
  v.changed = stats_.changed;
  v.nonfinite = stats_.nonfinite;
  if (old_.kind != ElementKind::opaque) {
    v.max_abs = stats_.max_abs;
    v.max_rel = stats_.max_rel;
  }
  return v;
}

}  // namespace tensorgate::detail::diff
