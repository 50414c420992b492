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
  void note(double x, double y) {
    ++changed_;
    const double d = y - x;
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(d)) {
      ++nonfinite_;
      return;
    }
    const double a = d < 0 ? -d : d;
    if (a > max_abs_) max_abs_ = a;
    if (x != 0) {
      const double r = a / (x < 0 ? -x : x);
      if (r > max_rel_) max_rel_ = r;
    }
  }
  template <typename Load>
  void run_same_float(const std::byte* o, const std::byte* n, std::uint64_t count);

  Encoding old_, new_;
  bool same_;
  bool bytes_differ_ = false;
  std::uint64_t elements_ = 0, changed_ = 0, nonfinite_ = 0;
  double max_abs_ = 0, max_rel_ = 0;
};

}  // namespace tensorgate::detail::diff
