#pragma once
// Element decoding for the audit: little-endian loads, exact F16/BF16 decoding, and the ggml
// type that stores a safetensors dtype unchanged. Every decoded value is a double, which holds
// F64, F32, F16 and BF16 values (and the products of block formats) exactly.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "tensorgate/safetensors/dtype.hpp"
#include "tensorgate/gguf.hpp"

namespace tensorgate::detail::pairing {

// ggml type ids the audit decodes (ggml.h's enum ggml_type).
enum GgmlId : std::uint32_t {
  kGgmlF32 = 0, kGgmlF16 = 1, kGgmlQ4_0 = 2, kGgmlQ8_0 = 8, kGgmlI8 = 24, kGgmlI16 = 25,
  kGgmlI32 = 26, kGgmlI64 = 27, kGgmlF64 = 28, kGgmlBF16 = 30,
};

inline std::uint16_t load_u16(const std::byte* p) {
  return static_cast<std::uint16_t>(std::to_integer<unsigned>(p[0]) | std::to_integer<unsigned>(p[1]) << 8);
}
inline std::uint32_t load_u32(const std::byte* p) {
  return std::uint32_t{load_u16(p)} | std::uint32_t{load_u16(p + 2)} << 16;
}
inline std::uint64_t load_u64(const std::byte* p) {
  return std::uint64_t{load_u32(p)} | std::uint64_t{load_u32(p + 4)} << 32;
}

// IEEE binary16: sign, 5 exponent bits (bias 15), 10 fraction bits. Decoded by hand rather than
// through F16C so that the result never depends on the build's target flags.
inline double f16_value(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const double fraction = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0x1f) return fraction != 0 ? std::nan("") : sign * HUGE_VAL;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);  // subnormal: fraction x 2^-24
  return sign * std::ldexp(1024.0 + fraction, exponent - 25);
}

// bfloat16 is the top half of a float32: widening is a shift, exact by construction.
inline float bf16_float(std::uint16_t b) { return std::bit_cast<float>(std::uint32_t{b} << 16); }

inline double f32_value(const std::byte* p) { return std::bit_cast<float>(load_u32(p)); }

// The ggml type that stores this dtype's values unchanged (same bytes), if any.
inline std::optional<std::uint32_t> ggml_equivalent(Dtype d) {
  switch (d) {
    case Dtype::F32: return kGgmlF32;
    case Dtype::F16: return kGgmlF16;
    case Dtype::BF16: return kGgmlBF16;
    case Dtype::F64: return kGgmlF64;
    case Dtype::I8: return kGgmlI8;
    case Dtype::I16: return kGgmlI16;
    case Dtype::I32: return kGgmlI32;
    case Dtype::I64: return kGgmlI64;
    default: return std::nullopt;
  }
}

// Floating-point element types both sides may hold, decoded one element at a time.
enum class FloatKind : std::uint8_t { f64, f32, f16, bf16 };

inline std::optional<FloatKind> float_kind(Dtype d) {
  switch (d) {
    case Dtype::F64: return FloatKind::f64;
    case Dtype::F32: return FloatKind::f32;
    case Dtype::F16: return FloatKind::f16;
    case Dtype::BF16: return FloatKind::bf16;
    default: return std::nullopt;
  }
}
inline std::optional<FloatKind> float_kind_ggml(std::uint32_t t) {
  switch (t) {
    case kGgmlF64: return FloatKind::f64;
    case kGgmlF32: return FloatKind::f32;
    case kGgmlF16: return FloatKind::f16;
    case kGgmlBF16: return FloatKind::bf16;
    default: return std::nullopt;
  }
}
inline unsigned float_size(FloatKind k) { return k == FloatKind::f64 ? 8 : k == FloatKind::f32 ? 4 : 2; }
// Bits of precision (significand, implicit bit included): a wider kind holds a narrower one's
// values exactly when it has at least as many bits and at least the same exponent range.
inline int float_precision(FloatKind k) {
  switch (k) {
    case FloatKind::f64: return 53;
    case FloatKind::f32: return 24;
    case FloatKind::f16: return 11;
    case FloatKind::bf16: return 8;
  }
  return 0;
}
inline int float_max_exponent(FloatKind k) { return k == FloatKind::f64 ? 1023 : k == FloatKind::f16 ? 15 : 127; }
// Every value of `from` is a value of `to` (F16 and BF16 to F32 or F64, F32 to F64).
inline bool widens_exactly(FloatKind from, FloatKind to) {
  return float_precision(to) >= float_precision(from) && float_max_exponent(to) >= float_max_exponent(from);
}

inline double float_value(FloatKind k, const std::byte* p) {
  switch (k) {
    case FloatKind::f64: return std::bit_cast<double>(load_u64(p));
    case FloatKind::f32: return f32_value(p);
    case FloatKind::f16: return f16_value(load_u16(p));
    case FloatKind::bf16: return bf16_float(load_u16(p));
  }
  return 0;
}

}  // namespace tensorgate::detail::pairing
