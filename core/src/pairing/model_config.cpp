#include "pairing/model_config.hpp"

#include "common/json_doc.hpp"

namespace tensorgate::detail::pairing {
namespace {

std::optional<ConfigNumber> number(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v) return std::nullopt;
  if (v->is_uint64()) return ConfigNumber{v->as_uint64(), static_cast<double>(v->as_uint64())};
  if (v->is_int64()) {
    const std::int64_t i = v->as_int64();
    return ConfigNumber{i >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(i)) : std::nullopt,
                        static_cast<double>(i)};
  }
  if (v->is_double()) return ConfigNumber{std::nullopt, v->as_double()};
  return std::nullopt;
}

std::optional<RopeScaling> rope_scaling(const boost::json::object& c) {
  const auto* v = c.if_contains("rope_scaling");
  if (!v || !v->is_object()) return std::nullopt;
  const boost::json::object& o = v->as_object();
  RopeScaling r;
  if (auto t = string_field(o, "rope_type")) r.type = *t;
  else if (auto t2 = string_field(o, "type")) r.type = *t2;
  if (auto n = number(o, "factor")) r.factor = n->value;
  if (auto n = number(o, "low_freq_factor")) r.low_freq_factor = n->value;
  if (auto n = number(o, "high_freq_factor")) r.high_freq_factor = n->value;
  if (auto n = number(o, "original_max_position_embeddings")) r.original_max_position_embeddings = n->value;
  return r;
}

}  // namespace

std::optional<ConfigNumber> ModelConfig::field(ConfigField f) const {
  switch (f) {
    case ConfigField::layers: return layers;
    case ConfigField::context: return context;
    case ConfigField::hidden: return hidden;
    case ConfigField::intermediate: return intermediate;
    case ConfigField::heads: return heads;
    case ConfigField::kv_heads: return kv_heads ? kv_heads : heads;
    case ConfigField::rope_theta: return rope_theta;
    case ConfigField::rms_eps: return rms_eps;
    case ConfigField::vocab: return vocab;
    case ConfigField::head_dim: {
      if (head_dim) return head_dim;
      if (!hidden || !heads || !hidden->integer || !heads->integer || *heads->integer == 0) return std::nullopt;
      const std::uint64_t d = *hidden->integer / *heads->integer;
      return ConfigNumber{d, static_cast<double>(d)};
    }
  }
  return std::nullopt;
}

ParsedConfig parse_model_config(std::string_view text, const DirectoryLimits& limits) {
  JsonDoc doc = parse_json_object(text, limits);
  if (!doc.object) return {std::nullopt, "config.json: " + doc.error};
  const boost::json::object& c = *doc.object;
  ModelConfig m;
  m.model_type = string_field(c, "model_type").value_or("");
  if (const auto* a = c.if_contains("architectures"); a && a->is_array() && !a->as_array().empty() &&
                                                       a->as_array()[0].is_string())
    m.class_name = std::string(a->as_array()[0].as_string());
  m.layers = number(c, "num_hidden_layers");
  m.context = number(c, "max_position_embeddings");
  m.hidden = number(c, "hidden_size");
  m.intermediate = number(c, "intermediate_size");
  m.heads = number(c, "num_attention_heads");
  m.kv_heads = number(c, "num_key_value_heads");
  m.head_dim = number(c, "head_dim");
  m.vocab = number(c, "vocab_size");
  m.rope_theta = number(c, "rope_theta");
  m.rms_eps = number(c, "rms_norm_eps");
  m.rope_scaling = rope_scaling(c);
  const auto* tie = c.if_contains("tie_word_embeddings");
  m.tied = tie && tie->is_bool() && tie->as_bool();
  return {std::move(m), {}};
}

}  // namespace tensorgate::detail::pairing
