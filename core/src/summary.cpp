#include "tensorgate/summary.hpp"

#include <array>
#include <charconv>
#include <string_view>

namespace tensorgate {
namespace {

// Names that identify an architecture, most specific first. Llama, Mistral and Qwen2 share
// the Hugging Face llama names and are reported as "llama".
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kMarkers{{
    {"bigram.weight", "bigram"},
    {".block_sparse_moe.", "mixtral"},
    {".self_attn.q_proj.", "llama"},
    {".attn.c_attn.", "gpt2"},
    {".self_attention.query_key_value.", "falcon"},
    {".attention.query_key_value.", "gpt_neox"},
    {".attention.self.query.", "bert"},
    {"encoder.block.", "t5"},
}};

// Layer containers: "<prefix>.<container>.<index>." or "<container>.<index>." at the start.
constexpr std::array<std::string_view, 5> kLayerContainers{"layers.", "h.", "layer.", "blocks.",
                                                           "block."};

std::optional<std::uint64_t> layer_index(std::string_view name) {
  for (const std::string_view c : kLayerContainers) {
    for (std::size_t at = name.find(c); at != std::string_view::npos; at = name.find(c, at + 1)) {
      if (at != 0 && name[at - 1] != '.') continue;
      const char* first = name.data() + at + c.size();
      const char* last = name.data() + name.size();
      std::uint64_t index = 0;
      const auto res = std::from_chars(first, last, index);
      if (res.ec == std::errc() && res.ptr != first && res.ptr < last && *res.ptr == '.')
        return index;
    }
  }
  return std::nullopt;
}

}  // namespace

ArchitectureGuess guess_architecture(const TensorTable& table) {
  ArchitectureGuess guess;
  std::size_t best = kMarkers.size();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::string_view name = table.str(table.record(i).name);
    for (std::size_t m = 0; m < best; ++m) {
      if (name.find(kMarkers[m].first) != std::string_view::npos) {
        best = m;
        break;
      }
    }
    if (const auto index = layer_index(name); index && *index < UINT64_MAX)
      guess.layers = std::max(guess.layers.value_or(0), *index + 1);
  }
  if (best < kMarkers.size()) guess.architecture = std::string(kMarkers[best].second);
  return guess;
}

}  // namespace tensorgate
