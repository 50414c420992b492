#pragma once
// The config.json fields the audit reads: the shapes behind the q/k permutation, the RoPE
// scaling behind rope_freqs.weight, and the values the GGUF metadata mirrors.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pairing/arch_table.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail::pairing {

// rope_scaling, with the converter's defaults for absent fields (Llama 3.1's values).
struct RopeScaling {
  std::string type;  // rope_type, or the older key type
  double factor = 8.0, low_freq_factor = 1.0, high_freq_factor = 4.0;
  double original_max_position_embeddings = 8192.0;
};

// A config number: integers stay exact, anything else is a double.
struct ConfigNumber {
  std::optional<std::uint64_t> integer;  // a non-negative JSON integer
  double value = 0;
};

struct ModelConfig {
  std::string model_type, class_name;  // model_type, architectures[0]
  std::optional<ConfigNumber> layers, context, hidden, intermediate, heads, kv_heads, head_dim, vocab;
  std::optional<ConfigNumber> rope_theta, rms_eps;
  std::optional<RopeScaling> rope_scaling;
  bool tied = false;

  // A field as the converter resolves it: kv_heads defaults to heads, head_dim to hidden/heads.
  std::optional<ConfigNumber> field(ConfigField f) const;
  std::optional<std::uint64_t> integer(ConfigField f) const {
    const auto n = field(f);
    return n ? n->integer : std::nullopt;
  }
};

struct ParsedConfig {
  std::optional<ModelConfig> config;
  std::string error;  // why not
};
ParsedConfig parse_model_config(std::string_view text, const DirectoryLimits& limits);

}  // namespace tensorgate::detail::pairing
