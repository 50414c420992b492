#pragma once
// Lossy targets: how their values are decoded and how far from the source each may be.
//
// Block formats, from ggml's ggml-common.h: a Q8_0 block is an F16 scale d and 32 int8 quants
// (34 bytes), element j = d * qs[j]; a Q4_0 block is an F16 scale d and 16 bytes of nibbles
// (18 bytes), element j = d * ((qs[j] & 15) - 8) and element j + 16 = d * ((qs[j] >> 4) - 8).
//
// Thresholds (docs/audit.md): an element x stored as y is within when
//   |y - x| <= rel * scale + abs,
// scale being |x| for float targets and the largest |x| of x's block for block targets (the
// quantity the block's scale is derived from). Each bound is what a correct rounding conversion
// can reach, with a little room, so a correct converter never fails and a wrong one (truncated
// values, a wrong scale, a shuffled block) does.
#include <cstdint>
#include <optional>
#include <string_view>

namespace tensorgate::detail::pairing {

struct Threshold {
  double rel;
  double abs;
  bool block_relative;  // scale: the block's largest magnitude, not the element's own
  double normal_min;     // float targets: the relative error is reported where |x| is at least
                         // this (the target's normal range); below it, only abs bounds it
  std::string_view why;  // the bound, for messages
};

// The threshold for a lossy target type (F16, BF16, F32 from F64, Q8_0, Q4_0), or nothing.
const Threshold* lossy_threshold(std::uint32_t ggml_type);

// The elements of one block, decoded exactly (a block is 32 elements for both formats).
inline constexpr unsigned kQBlock = 32;
void decode_q8_0(const std::byte* block, double out[kQBlock]);
void decode_q4_0(const std::byte* block, double out[kQBlock]);

}  // namespace tensorgate::detail::pairing
