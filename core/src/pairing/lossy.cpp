#include "pairing/lossy.hpp"

#include <cmath>

#include "pairing/numbers.hpp"

namespace tensorgate::detail::pairing {
namespace {

// Rounding to nearest in a float format with p bits of precision errs by at most 2^-p of the
// value (half an ulp); below the normal range by half the smallest subnormal.
constexpr Threshold kF16{0x1p-11, 0x1p-25, false, 0x1p-14,
                         "|error| <= 2^-11 |x| + 2^-25"};
constexpr Threshold kBF16{0x1p-8, 0x1p-134, false, 0x1p-126,
                          "|error| <= 2^-8 |x| + 2^-134"};
constexpr Threshold kF32{0x1p-24, 0x1p-150, false, 0x1p-126,
                         "|error| <= 2^-24 |x| + 2^-150"};
// Q8_0: d = amax/127, q = round(x/d): |error| <= d/2 = amax/254, plus the F16 rounding of d
// times |q| <= 127 (2^-11 amax, or 127 x 2^-25 when d is subnormal in F16). 1/254 + 2^-11 is
// 0.004425; 0.0045 leaves room for float32 arithmetic in the quantizer.
constexpr Threshold kQ8_0{0.0045, 127 * 0x1p-25, true, 0,
                          "|error| <= 0.0045 amax + 127 x 2^-25, amax the block's largest |x|"};
// Q4_0: d = -max/8 (max: the element of largest magnitude), q = min(15, round(x/d) + 8): the
// clamp costs the opposite extreme up to |d| = amax/8, the rest at most |d|/2, plus the F16
// rounding of d times |q - 8| <= 8. 1/8 + 2^-11 is 0.12549; 0.126 leaves room.
constexpr Threshold kQ4_0{0.126, 8 * 0x1p-25, true, 0,
                          "|error| <= 0.126 amax + 2^-22, amax the block's largest |x|"};

}  // namespace

const Threshold* lossy_threshold(std::uint32_t t) {
  switch (t) {
    case kGgmlF16: return &kF16;
    case kGgmlBF16: return &kBF16;
    case kGgmlF32: return &kF32;
    case kGgmlQ8_0: return &kQ8_0;
    case kGgmlQ4_0: return &kQ4_0;
    default: return nullptr;
  }
}

void decode_q8_0(const std::byte* block, double out[kQBlock]) {
  const double d = f16_value(load_u16(block));
  for (unsigned j = 0; j < kQBlock; ++j) out[j] = d * static_cast<std::int8_t>(std::to_integer<unsigned>(block[2 + j]));
}

void decode_q4_0(const std::byte* block, double out[kQBlock]) {
  const double d = f16_value(load_u16(block));
  for (unsigned j = 0; j < kQBlock / 2; ++j) {
    const unsigned q = std::to_integer<unsigned>(block[2 + j]);
    out[j] = d * (static_cast<int>(q & 15) - 8);
    out[j + kQBlock / 2] = d * (static_cast<int>(q >> 4) - 8);
  }
}

}  // namespace tensorgate::detail::pairing
