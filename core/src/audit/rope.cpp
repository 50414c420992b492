#include "rope.hpp"

#include <bit>
#include <cmath>
#include <numbers>
#include <utility>

namespace tensorgate::detail::audit {
namespace {

double factor_of_freq(const RopeScaling& s, double freq) {
  const double wavelength = 2 * std::numbers::pi / freq;
  const double low_wavelength = s.original_max_position_embeddings / s.low_freq_factor;
  const double high_wavelength = s.original_max_position_embeddings / s.high_freq_factor;
  if (wavelength < high_wavelength) return 1.0;
  if (wavelength > low_wavelength) return s.factor;
  const double smooth = (s.original_max_position_embeddings / wavelength - s.low_freq_factor) /
                        (s.high_freq_factor - s.low_freq_factor);
  return 1.0 / ((1 - smooth) / s.factor + smooth);
}

// Positive finite float32 values are ordered like their bit patterns.
std::int64_t ulp_index(float v) { return std::bit_cast<std::int32_t>(v); }

}  // namespace

std::optional<std::string> rope_scaling_problem(const RopeScaling& s, std::uint64_t head_dim) {
  if (head_dim == 0 || head_dim % 2 != 0) return "head_dim " + std::to_string(head_dim) + " is not a positive even number";
  const bool finite = std::isfinite(s.factor) && std::isfinite(s.low_freq_factor) && std::isfinite(s.high_freq_factor) &&
                      std::isfinite(s.original_max_position_embeddings);
  if (!finite || !(s.factor > 0) || !(s.low_freq_factor > 0) || !(s.original_max_position_embeddings > 0))
    return std::string("rope_scaling's factor, low_freq_factor and original_max_position_embeddings must be positive");
  if (!(s.high_freq_factor > s.low_freq_factor)) return std::string("rope_scaling's high_freq_factor must exceed low_freq_factor");
  return std::nullopt;
}

double llama3_factor(const RopeScaling& s, double theta, std::uint64_t head_dim, std::uint64_t i) {
  const double k = static_cast<double>(2 * i);
  return factor_of_freq(s, std::pow(theta, -k / static_cast<double>(head_dim)));
}

bool rope_factor_matches(float stored, const RopeScaling& s, double theta, std::uint64_t head_dim, std::uint64_t i) {
  const double freq = std::pow(theta, -static_cast<double>(2 * i) / static_cast<double>(head_dim));
  // The factor is monotone in the frequency: the band's ends bound it.
  double lo = factor_of_freq(s, freq * (1 - 0x1p-21)), hi = factor_of_freq(s, freq * (1 + 0x1p-21));
  if (lo > hi) std::swap(lo, hi);
  const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
  if (!(stored > 0) || !std::isfinite(stored) || !(flo > 0) || !std::isfinite(fhi)) return false;
  return ulp_index(stored) >= ulp_index(flo) - 4 && ulp_index(stored) <= ulp_index(fhi) + 4;
}

}  // namespace tensorgate::detail::audit
