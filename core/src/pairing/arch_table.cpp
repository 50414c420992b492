#include "pairing/arch_table.hpp"

#include <array>
#include <charconv>

namespace tensorgate::detail::pairing {
namespace {

// llama: convert_hf_to_gguf.py's LlamaModel with gguf-py's tensor map (the names of docs/audit.md).
constexpr NameRule kLlamaGlobals[] = {
    {"model.embed_tokens", "token_embd"},
    {"model.norm", "output_norm"},
    {"lm_head", "output"},
};
constexpr NameRule kLlamaLayer[] = {
    {"self_attn.q_proj", "attn_q", RowOrder::rope_q},
    {"self_attn.k_proj", "attn_k", RowOrder::rope_k},
    {"self_attn.v_proj", "attn_v"},
    {"self_attn.o_proj", "attn_output"},
    {"mlp.gate_proj", "ffn_gate"},
    {"mlp.up_proj", "ffn_up"},
    {"mlp.down_proj", "ffn_down"},
    {"input_layernorm", "attn_norm"},
    {"post_attention_layernorm", "ffn_norm"},
};
constexpr GeneratedRule kLlamaGenerated[] = {{"rope_freqs.weight", Generated::llama3_rope_freqs}};
// The keys LlamaModel.set_gguf_parameters writes, and llama.cpp's fallback when one is absent.
constexpr MetadataRule kLlamaMetadata[] = {
    {"block_count", ConfigField::layers, false, KeyDefault::required},
    {"context_length", ConfigField::context, false, KeyDefault::required},
    {"embedding_length", ConfigField::hidden, false, KeyDefault::required},
    {"feed_forward_length", ConfigField::intermediate, false, KeyDefault::required},
    {"attention.head_count", ConfigField::heads, false, KeyDefault::required},
    {"attention.head_count_kv", ConfigField::kv_heads, false, KeyDefault::heads},
    {"rope.freq_base", ConfigField::rope_theta, true, KeyDefault::ten_thousand},
    {"attention.layer_norm_rms_epsilon", ConfigField::rms_eps, true, KeyDefault::required},
    {"rope.dimension_count", ConfigField::head_dim, false, KeyDefault::hidden_over_heads},
    {"attention.key_length", ConfigField::head_dim, false, KeyDefault::hidden_over_heads},
    {"attention.value_length", ConfigField::head_dim, false, KeyDefault::hidden_over_heads},
    {"vocab_size", ConfigField::vocab, false, KeyDefault::optional},
};

constexpr std::array kArchitectures = {
    ArchSpec{"llama", "LlamaForCausalLM", "llama", "model.layers.", "blk.", kLlamaGlobals, kLlamaLayer,
             kLlamaGenerated, kLlamaMetadata},
};

// "12.rest" -> 12 and "rest"; no sign, no leading zero (the converter writes str(int)).
std::optional<std::pair<std::uint64_t, std::string_view>> layer_number(std::string_view s) {
  const std::size_t dot = s.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 9) return std::nullopt;
  if (s[0] == '0' && dot > 1) return std::nullopt;
  std::uint64_t n = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + dot, n);
  if (ec != std::errc() || ptr != s.data() + dot) return std::nullopt;
  return std::pair{n, s.substr(dot + 1)};
}

}  // namespace

const ArchSpec* find_architecture(std::string_view model_type, std::string_view class_name) {
  for (const ArchSpec& a : kArchitectures)
    if ((!model_type.empty() && model_type == a.model_type) || (model_type.empty() && class_name == a.class_name))
      return &a;
  return nullptr;
}

const ArchSpec* find_gguf_architecture(std::string_view gguf_arch) {
  for (const ArchSpec& a : kArchitectures)
    if (gguf_arch == a.gguf_arch) return &a;
  return nullptr;
}

std::optional<MappedName> map_name(const ArchSpec& arch, std::string_view source) {
  std::string_view suffix;
  for (const std::string_view s : {std::string_view(".weight"), std::string_view(".bias")})
    if (source.ends_with(s)) suffix = s;
  if (suffix.empty()) return std::nullopt;
  const std::string_view stem = source.substr(0, source.size() - suffix.size());
  for (const NameRule& r : arch.globals)
    if (stem == r.source) return MappedName{std::string(r.gguf) + std::string(suffix), r.order};
  if (!stem.starts_with(arch.layer_prefix)) return std::nullopt;
  const auto layer = layer_number(stem.substr(arch.layer_prefix.size()));
  if (!layer) return std::nullopt;
  for (const NameRule& r : arch.layer) {
    if (layer->second != r.source) continue;
    return MappedName{std::string(arch.gguf_layer_prefix) + std::to_string(layer->first) + "." + std::string(r.gguf) +
                          std::string(suffix),
                      r.order};
  }
  return std::nullopt;
}

}  // namespace tensorgate::detail::pairing
