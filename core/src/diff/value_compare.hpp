#pragma once
// The values of one tensor pair, compared piece by piece (it never needs a tensor whole).
//
// An element changed when its bytes differ (the same encoding on both sides) or its value does
// (different encodings: decoded exactly to doubles, -0 and +0 distinct, any NaN equal to any
// NaN). Of the changed elements, those where either side is a NaN or an infinity are counted as
// non-finite; the others give the largest absolute difference |new - old| and the largest
// relative one |new - old| / |old| (over old values other than 0). Types the diff does not
// decode are compared block by block, as bytes: a changed block counts all its elements.
#include <cmath>
#include <cstdint>

#include "side.hpp"

namespace tensorgate::detail::diff {

// Whether two encodings can be compared: the same one, or both decoded.
bool comparable(const Encoding& a, const Encoding& b);

// The running statistics of the changed elements. Kept in locals while a piece is compared:
// as members they would be stored on every element (std::byte pointers alias everything).
struct ChangeStats {
  std::uint64_t changed = 0, nonfinite = 0;
  double max_abs = 0, max_rel = 0;
  void note(double x, double y) {
    ++changed;
    const double a = std::fabs(y - x);  // NaN or infinite when either side is, or on overflow
    if (!(a <= 1.7976931348623157e308)) {
      ++nonfinite;
      return;
    }
    if (a > max_abs) max_abs = a;
    const double ax = std::fabs(x);
    if (a > max_rel * ax && ax != 0) max_rel = a / ax;  // a division only when the maximum grows
  }
};

class ValueComparator {
 public:
  ValueComparator(const Encoding& old_enc, const Encoding& new_enc);
  // `n` elements on both sides (a multiple of both block sizes).
  void run(const std::byte* old_bytes, const std::byte* new_bytes, std::uint64_t n);
  // The result: identical means the same encoding and every byte equal.
  ValueDiff result() const;

 private:
  void run_decoded(const std::byte* o, const std::byte* n, std::uint64_t count);
  void run_opaque(const std::byte* o, const std::byte* n, std::uint64_t count);
  template <typename Load>
  void run_same_float(const std::byte* o, const std::byte* n, std::uint64_t count);

  Encoding old_, new_;
  bool same_;
  bool bytes_differ_ = false;
  std::uint64_t elements_ = 0;
  ChangeStats stats_;
};

}  // namespace tensorgate::detail::diff
