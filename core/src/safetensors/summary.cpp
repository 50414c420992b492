// The architecture and layer count a safetensors file's tensor names show.
#include "tensorgate/safetensors/summary.hpp"

#include <algorithm>
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

// Segments that hold the layers: "<prefix>.<container>.<index>.<rest>" or at the start.
constexpr std::array<std::string_view, 5> kLayerContainers{"layers", "h", "layer", "blocks", "block"};

// The layer index of "<prefix>.<container>.<index>.<rest>", in one pass over the segments;
// `prefix` becomes "<prefix>.<container>.<index>." (empty when there is no index).
std::optional<std::uint64_t> layer_index(std::string_view name, std::string_view& prefix) {
  prefix = {};
  std::string_view previous;
  std::size_t start = 0;
  while (start < name.size()) {
    std::size_t dot = name.find('.', start);
    if (dot == std::string_view::npos) return std::nullopt;  // the last segment is no index
    const std::string_view segment = name.substr(start, dot - start);
    if (!segment.empty() && segment[0] >= '0' && segment[0] <= '9' &&
        std::find(kLayerContainers.begin(), kLayerContainers.end(), previous) != kLayerContainers.end()) {
      std::uint64_t index = 0;
      const auto res = std::from_chars(segment.data(), segment.data() + segment.size(), index);
      if (res.ec == std::errc() && res.ptr == segment.data() + segment.size()) {
        prefix = name.substr(0, dot + 1);
        return index;
      }
    }
    previous = segment;
    start = dot + 1;
  }
  return std::nullopt;
}

}  // namespace

// Every layer repeats the names of layer 0, so the architecture markers are searched in the
// names of layer 0 and the names outside the layers only. A layer's tensors come together in
// real files: a name that begins with the last name's "<prefix>.<container>.<index>." has its
// layer, found without going over its segments again (most names of a 100,000-tensor file).
ArchitectureGuess guess_architecture(const TensorTable& table) {
  ArchitectureGuess guess;
  std::size_t best = kMarkers.size();
  std::string_view layer_prefix;  // "<...>.<container>.<index>." of the last name in a layer
  std::uint64_t prefix_layer = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::string_view name = table.str(table.record(i).name);
    std::optional<std::uint64_t> layer;
    if (!layer_prefix.empty() && name.starts_with(layer_prefix)) {
      layer = prefix_layer;
    } else if ((layer = layer_index(name, layer_prefix))) {
      prefix_layer = *layer;
    }
    if (layer && *layer < UINT64_MAX) guess.layers = std::max(guess.layers.value_or(0), *layer + 1);
    if (layer && *layer != 0) continue;
    for (std::size_t m = 0; m < best; ++m) {
      if (name.find(kMarkers[m].first) != std::string_view::npos) {
        best = m;
        break;
      }
    }
  }
  if (best < kMarkers.size()) guess.architecture = std::string(kMarkers[best].second);
  return guess;
}

}  // namespace tensorgate
