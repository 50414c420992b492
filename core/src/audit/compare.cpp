#include "compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace tensorgate::detail::audit {

Mode choose_mode(Dtype source, std::uint32_t t) {
  if (ggml_equivalent(source) == t) return Mode::bytes;
  const auto from = float_kind(source);
  const auto to = float_kind_ggml(t);
  if (from && to) return widens_exactly(*from, *to) ? Mode::widen : Mode::lossy;
  if (from && (t == kGgmlQ8_0 || t == kGgmlQ4_0)) return Mode::lossy;
  const bool plain_target = to || t == kGgmlI8 || t == kGgmlI16 || t == kGgmlI32 || t == kGgmlI64;
  // Integers stored as floats (or floats as integers) are not a conversion of the values; any
  // other pairing (a k-quant target, an F8 source) is one the audit does not decode.
  if (plain_target && ggml_equivalent(source)) return Mode::dtype_error;
  return Mode::not_compared;
}

Comparator::Comparator(Mode mode, Dtype source, std::uint32_t t) : mode_(mode), ggml_type_(t) {
  elem_size_ = dtype_info(source).bits / 8;
  if (const auto k = float_kind(source)) src_kind_ = *k;
  if (const auto k = float_kind_ggml(t)) gguf_kind_ = *k;
  if (mode == Mode::lossy) threshold_ = lossy_threshold(t);
}

void Comparator::run(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first) {
  switch (mode_) {
    case Mode::bytes: run_bytes(source, gguf, n, first); return;
    case Mode::widen: run_widen(source, gguf, n, first); return;
    case Mode::lossy:
      if (ggml_type_ == kGgmlQ8_0 || ggml_type_ == kGgmlQ4_0) run_lossy_block(source, gguf, n, first);
      else run_lossy_float(source, gguf, n, first);
      return;
    case Mode::not_compared:
    case Mode::dtype_error: return;
  }
}

void Comparator::note(std::uint64_t index, double x, double y) {
  if (stats_.differing++ == 0) stats_.first = FirstDifference{index, 0, 0, x, y};
}

// The same bytes: one memcmp per chunk, element by element only where it differs.
void Comparator::run_bytes(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first) {
  const std::size_t size = elem_size_;
  if (std::memcmp(source, gguf, n * size) == 0) return;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (std::memcmp(source + i * size, gguf + i * size, size) == 0) continue;
    if (stats_.differing++ == 0) {
      FirstDifference d{first + i, 0, 0, 0, 0};
      for (std::size_t b = 0; b < size; ++b) {
        d.source_bits |= std::uint64_t{std::to_integer<unsigned>(source[i * size + b])} << (8 * b);
        d.gguf_bits |= std::uint64_t{std::to_integer<unsigned>(gguf[i * size + b])} << (8 * b);
      }
      stats_.first = d;
    }
  }
}

// Exact widening maps each value to one value: the widened bits must be equal (so +0 is not
// -0), and a NaN must stay a NaN (hardware conversions may set the quiet bit).
void Comparator::run_widen(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first) {
  const unsigned ss = float_size(src_kind_), gs = float_size(gguf_kind_);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double x = float_value(src_kind_, source + i * ss);
    const double y = float_value(gguf_kind_, gguf + i * gs);
    if (std::isnan(x) ? std::isnan(y) : std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y)) continue;
    note(first + i, x, y);
  }
}

void Comparator::lossy_element(std::uint64_t index, double x, double y, double scale) {
  double err = 0;
  if (std::isnan(x) || std::isnan(y)) err = std::isnan(x) && std::isnan(y) ? 0 : HUGE_VAL;
  else if (x != y) err = std::fabs(y - x);  // x == y also covers infinities of one sign
  if (!std::isfinite(err)) err = HUGE_VAL;
  // Relative to the block's amax, or to |x| within the target's normal range (below it a
  // correct rounding has only an absolute bound, and |x| would make any error look huge).
  const double rel = err == 0 || scale < threshold_->normal_min ? 0 : scale > 0 ? err / scale : HUGE_VAL;
  stats_.max_abs = std::max(stats_.max_abs, err);
  stats_.max_rel = std::max(stats_.max_rel, rel);
  if (err > threshold_->rel * scale + threshold_->abs || err == HUGE_VAL) note(index, x, y);
}

void Comparator::run_lossy_float(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first) {
  const unsigned ss = float_size(src_kind_), gs = float_size(gguf_kind_);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double x = float_value(src_kind_, source + i * ss);
    lossy_element(first + i, x, float_value(gguf_kind_, gguf + i * gs), std::fabs(x));
  }
}

// Block by block: the scale of an element's error is its block's largest source magnitude.
void Comparator::run_lossy_block(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first) {
  const unsigned ss = float_size(src_kind_);
  const unsigned block_bytes = ggml_type_ == kGgmlQ8_0 ? 34 : 18;
  double x[kQBlock], y[kQBlock];
  for (std::uint64_t b = 0; b < n / kQBlock; ++b) {
    double amax = 0;
    for (unsigned j = 0; j < kQBlock; ++j) {
      x[j] = float_value(src_kind_, source + (b * kQBlock + j) * ss);
      if (!std::isnan(x[j])) amax = std::max(amax, std::fabs(x[j]));
    }
    if (ggml_type_ == kGgmlQ8_0) decode_q8_0(gguf + b * block_bytes, y);
    else decode_q4_0(gguf + b * block_bytes, y);
    for (unsigned j = 0; j < kQBlock; ++j) lossy_element(first + b * kQBlock + j, x[j], y[j], amax);
  }
}

}  // namespace tensorgate::detail::audit
