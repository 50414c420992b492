#pragma once
// ST4's size rule as arithmetic only: what a tensor's shape and dtype need against the span its
// data_offsets give. The header handler turns the verdict into findings (st4_entry_checks.cpp);
// the plain-header fast path accepts only `fits` with no reference difference.
#include <cstdint>
#include <limits>
#include <span>

#include "common/uint128.hpp"
#include "tensorgate/safetensors/dtype.hpp"

namespace tensorgate::detail {

struct TensorSize {
  enum class Verdict : std::uint8_t { fits, count_overflow, sub_byte, byte_overflow, mismatch };
  Verdict verdict = Verdict::fits;
  std::uint64_t elements = 0;  // the element count (0 when a dimension is 0)
  std::uint64_t bytes = 0;     // what the shape and dtype need (when it fits in 64 bits)
  // The reference folds left to right with checked multiplication, so it rejects a zero product
  // whose prefix overflows, and a size whose bit count passes 64 bits: valid here, refused there.
  bool fold_overflowed = false;
  bool bits_overflowed = false;
};

// A zero dimension makes the product zero whatever the others; otherwise any overflow past
// 64 bits is an error.
inline TensorSize tensor_size(std::span<const std::uint64_t> shape, Dtype dtype, std::uint64_t span) {
  TensorSize out;
  std::uint64_t product = 1;
  bool zero = false;
  for (const std::uint64_t d : shape) {
    zero = zero || d == 0;
    if (!out.fold_overflowed && __builtin_mul_overflow(product, d, &product)) out.fold_overflowed = true;
  }
  if (out.fold_overflowed && !zero) {
    out.verdict = TensorSize::Verdict::count_overflow;
    return out;
  }
  out.elements = zero ? 0 : product;
  const uint128 bits = static_cast<uint128>(out.elements) * dtype_info(dtype).bits;
  out.bits_overflowed = bits > std::numeric_limits<std::uint64_t>::max();
  if (bits % 8 != 0) {
    out.verdict = TensorSize::Verdict::sub_byte;
    return out;
  }
  if (bits / 8 > std::numeric_limits<std::uint64_t>::max()) {
    out.verdict = TensorSize::Verdict::byte_overflow;
    return out;
  }
  out.bytes = static_cast<std::uint64_t>(bits / 8);
  if (span != out.bytes) out.verdict = TensorSize::Verdict::mismatch;
  return out;
}

}  // namespace tensorgate::detail
