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

ArchitectureGuesser::ArchitectureGuesser() : best_(kMarkers.size()) {}

// Every layer repeats the names of layer 0, so the architecture markers are searched in the
// names of layer 0 and the names outside the layers only. A layer's tensors come together in
// real files: a name that begins with the last name's "<prefix>.<container>.<index>." has its
// layer, found without going over its segments again (most names of a 100,000-tensor file).
void ArchitectureGuesser::add(std::string_view name) {
  std::optional<std::uint64_t> layer;
  if (!layer_prefix_.empty() && name.starts_with(layer_prefix_)) {
    layer = prefix_layer_;
  } else if ((layer = layer_index(name, layer_prefix_))) {
    prefix_layer_ = *layer;
  }
  if (layer && *layer < UINT64_MAX) layers_ = std::max(layers_.value_or(0), *layer + 1);
  if (layer && *layer != 0) return;
  for (std::size_t m = 0; m < best_; ++m) {
    if (name.find(kMarkers[m].first) != std::string_view::npos) {
      best_ = m;
      return;
    }
  }
}

ArchitectureGuess ArchitectureGuesser::result() const {
  ArchitectureGuess guess;
  guess.layers = layers_;
  if (best_ < kMarkers.size()) guess.architecture = std::string(kMarkers[best_].second);
  return guess;
}

ArchitectureGuess guess_architecture(const TensorTable& table) {
  ArchitectureGuesser guesser;
  for (std::size_t i = 0; i < table.size(); ++i) guesser.add(table.str(table.record(i).name));
  return guesser.result();
}

}  // namespace tensorgate
