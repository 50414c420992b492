#pragma once
// rope_freqs.weight for llama3 RoPE scaling (convert_hf_to_gguf.py's LlamaModel generates it;
// docs/audit.md gives the formula). For k = 0, 2, ..., head_dim-2: freq = rope_theta^(-k/head_dim),
// wavelength = 2 pi / freq, and the factor is
//   1                            when wavelength < original_max_position_embeddings / high_freq_factor,
//   factor                       when wavelength > original_max_position_embeddings / low_freq_factor,
//   1 / ((1 - s)/factor + s)     otherwise, s = (original/wavelength - low) / (high - low).
#include <cstdint>
#include <optional>
#include <string>

#include "pairing/model_config.hpp"

namespace tensorgate::detail::audit {

using namespace pairing;  // the audit reads through the pairing room's decoders, name map and config

// Why the scaling cannot produce factors (AU.config), or nothing.
std::optional<std::string> rope_scaling_problem(const RopeScaling& s, std::uint64_t head_dim);

// The factor for frequency index i (k = 2i), exactly (double arithmetic).
double llama3_factor(const RopeScaling& s, double theta, std::uint64_t head_dim, std::uint64_t i);

// "Within float32 rounding": `stored` is within 4 float32 ulps of the factor of some frequency
// within 2^-21 (a few float32 ulps) of the exact one. Converters compute the frequency in
// float32 (torch's arange and pow), and where the factor is steep (the smooth band, factor 32)
// one ulp of frequency moves the factor by several ulps: the band follows that, and stays far
// narrower than any wrong setting (another factor, theta or context length).
bool rope_factor_matches(float stored, const RopeScaling& s, double theta, std::uint64_t head_dim, std::uint64_t i);

}  // namespace tensorgate::detail::audit
