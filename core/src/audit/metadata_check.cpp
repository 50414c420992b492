#include "metadata_check.hpp"

#include <cmath>

#include "common/printable.hpp"
#include "common/number_text.hpp"

namespace tensorgate::detail::audit {
namespace {

std::string_view config_key(ConfigField f) {
  switch (f) {
    case ConfigField::layers: return "num_hidden_layers";
    case ConfigField::context: return "max_position_embeddings";
    case ConfigField::hidden: return "hidden_size";
    case ConfigField::intermediate: return "intermediate_size";
    case ConfigField::heads: return "num_attention_heads";
    case ConfigField::kv_heads: return "num_key_value_heads";
    case ConfigField::rope_theta: return "rope_theta";
    case ConfigField::rms_eps: return "rms_norm_eps";
    case ConfigField::head_dim: return "head_dim";
    case ConfigField::vocab: return "vocab_size";
  }
  return "";
}

GgufScalarValue integer_value(std::uint64_t v) { return GgufScalarValue{true, false, v, std::nullopt, false, std::to_string(v)}; }

// The value llama.cpp uses when the key is absent, or nothing when it needs the key.
std::optional<GgufScalarValue> absent_value(const AuditContext& ctx, const MetadataRule& rule) {
  const std::string arch(ctx.arch->gguf_arch);
  const auto gguf_int = [&](std::string_view key) -> std::optional<std::uint64_t> {
    const GgufScalar* s = find_gguf_scalar(*ctx.gguf, arch + "." + std::string(key));
    const auto v = s ? gguf_scalar_value(*s) : std::nullopt;
    return v && v->integer && !v->negative ? std::optional(v->magnitude) : std::nullopt;
  };
  switch (rule.absent) {
    case KeyDefault::heads: {
      const auto h = gguf_int("attention.head_count");
      return h ? std::optional(integer_value(*h)) : std::nullopt;
    }
    case KeyDefault::ten_thousand: return GgufScalarValue{false, false, 0, 10000.0, false, "10000 (llama.cpp's default)"};
    case KeyDefault::hidden_over_heads: {
      const auto e = gguf_int("embedding_length"), h = gguf_int("attention.head_count");
      if (!e || !h || *h == 0) return std::nullopt;
      return integer_value(*e / *h);
    }
    case KeyDefault::required:
    case KeyDefault::optional: return std::nullopt;
  }
  return std::nullopt;
}

// Whether the GGUF's value is the config's; `why` says how it is not.
bool agrees(const GgufScalarValue& v, const ConfigNumber& c, bool is_float, std::string& why) {
  if (is_float) {
    if (!v.real) return why = "is an integer, not a float", false;
    const double want = static_cast<float>(c.value);  // the config's value rounded to f32
    if (*v.real == want || (v.f64 && *v.real == c.value)) return true;
    why = "is " + v.text + ", config.json's " + exact(c.value) + " is " + exact(want) + " as f32";
    return false;
  }
  const std::optional<std::uint64_t> want =
      c.integer ? c.integer : (c.value >= 0 && std::floor(c.value) == c.value && c.value < 0x1p64)
                                  ? std::optional(static_cast<std::uint64_t>(c.value)) : std::nullopt;
  if (!v.integer) return why = "is a float, not an integer", false;
  if (want && !v.negative && v.magnitude == *want) return true;
  why = "is " + v.text + ", config.json says " + (want ? std::to_string(*want) : exact(c.value));
  return false;
}

void check_key(AuditContext& ctx, const MetadataRule& rule) {
  const std::string key = std::string(ctx.arch->gguf_arch) + "." + std::string(rule.key);
  const std::optional<ConfigNumber> c = ctx.config.field(rule.field);
  const GgufScalar* s = find_gguf_scalar(*ctx.gguf, key);
  if (!c) {
    if (s) ctx.add(Rule::au_not_compared, key + " not compared: config.json gives no " + std::string(config_key(rule.field)));
    return;
  }
  std::optional<GgufScalarValue> v = s ? gguf_scalar_value(*s) : absent_value(ctx, rule);
  if (!v) {
    if (s) ctx.add(Rule::au_metadata, key + " is not a number");
    else if (rule.absent == KeyDefault::required) ctx.add(Rule::au_metadata, key + " is missing (llama.cpp needs it)");
    return;
  }
  std::string why;
  if (!agrees(*v, *c, rule.is_float, why))
    ctx.add(Rule::au_metadata, key + (s ? " " : " is absent: llama.cpp's value ") + why + " (" +
                                   std::string(config_key(rule.field)) + ")");
}

}  // namespace

void check_metadata(AuditContext& ctx) {
  const GgufSummary& g = *ctx.gguf;
  if (g.architecture != std::optional<std::string>(ctx.arch->gguf_arch))
    ctx.add(Rule::au_metadata, "general.architecture is " + (g.architecture ? quoted(*g.architecture) : std::string("missing")) +
                                   ", not " + std::string(ctx.arch->gguf_arch));
  for (const MetadataRule& rule : ctx.arch->metadata) check_key(ctx, rule);
  const auto vocab = ctx.config.integer(ConfigField::vocab);
  if (vocab && g.vocab_size && *g.vocab_size != *vocab)
    ctx.add(Rule::au_metadata, "tokenizer.ggml.tokens holds " + std::to_string(*g.vocab_size) + " tokens, config.json's vocab_size is " +
                                   std::to_string(*vocab));
}

}  // namespace tensorgate::detail::audit
