// AR: the tensor inventory against config.json, for llama-family configs (model_type llama or
// tl_arch llama) and the tinyllm bigram. A quantized weight may stand as its int4 pair
// (<name>.qweight, <name>.scales), checked against the shape the config implies.
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>

#include "modeldir/dir_context.hpp"
#include "common/json_doc.hpp"
#include "common/printable.hpp"

namespace tensorgate::detail {
namespace {

struct Expected {
  std::string name;
  std::vector<std::uint64_t> shape;
  bool linear;  // may be stored as an int4 pair
};

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

struct LlamaConfig {
  std::uint64_t layers, hidden, intermediate, heads, kv_heads, head_dim, vocab;
  bool tied;
};

std::optional<LlamaConfig> read_llama(DirContext& ctx, const boost::json::object& c) {
  std::string missing;
  const auto need = [&](std::string_view key) {
    auto v = positive_integer(c, key);
    if (!v) missing += (missing.empty() ? "" : ", ") + std::string(key);
    return v.value_or(0);
  };
  LlamaConfig l{need("num_hidden_layers"), need("hidden_size"), need("intermediate_size"),
                need("num_attention_heads"), 0, 0, need("vocab_size"), false};
  if (!missing.empty()) {
    ctx.add(Rule::ar_config, "config.json lacks positive integers for " + missing);
    return std::nullopt;
  }
  l.kv_heads = positive_integer(c, "num_key_value_heads").value_or(l.heads);
  l.head_dim = positive_integer(c, "head_dim").value_or(l.hidden / l.heads);
  const auto* tie = c.if_contains("tie_word_embeddings");
  l.tied = tie && tie->is_bool() && tie->as_bool();
  if (l.layers > 100'000) {
    ctx.add(Rule::ar_config, "num_hidden_layers " + std::to_string(l.layers) + " is beyond any real model");
    return std::nullopt;
  }
  return l;
}

std::vector<Expected> llama_inventory(const LlamaConfig& l) {
  const std::uint64_t q = l.heads * l.head_dim, kv = l.kv_heads * l.head_dim;
  std::vector<Expected> e{{"model.embed_tokens.weight", {l.vocab, l.hidden}, false},
                          {"model.norm.weight", {l.hidden}, false}};
  for (std::uint64_t i = 0; i < l.layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    e.push_back({p + "self_attn.q_proj.weight", {q, l.hidden}, true});
    e.push_back({p + "self_attn.k_proj.weight", {kv, l.hidden}, true});
    e.push_back({p + "self_attn.v_proj.weight", {kv, l.hidden}, true});
    e.push_back({p + "self_attn.o_proj.weight", {l.hidden, q}, true});
    e.push_back({p + "mlp.gate_proj.weight", {l.intermediate, l.hidden}, true});
    e.push_back({p + "mlp.up_proj.weight", {l.intermediate, l.hidden}, true});
    e.push_back({p + "mlp.down_proj.weight", {l.hidden, l.intermediate}, true});
    e.push_back({p + "input_layernorm.weight", {l.hidden}, false});
    e.push_back({p + "post_attention_layernorm.weight", {l.hidden}, false});
  }
  return e;
}

using TensorMap = boost::unordered_flat_map<std::string, const InventoryTensor*>;

// The int4 pair of a quantized [out, in] weight: qweight U8 [out, in/2], scales F16 [out, in/group].
bool check_int4_pair(DirContext& ctx, const Expected& e, const TensorMap& tensors, std::optional<std::uint64_t> group) {
  const auto q = tensors.find(e.name + ".qweight");
  const auto s = tensors.find(e.name + ".scales");
  if (q == tensors.end() && s == tensors.end()) return false;
  if (q == tensors.end() || s == tensors.end()) {
    ctx.add(Rule::tl_int4, "an int4 weight needs both .qweight and .scales", e.name);
    return true;
  }
  if (!group) {
    ctx.add(Rule::tl_quant, "int4 tensors without a valid quant metadata value int4-g<group>-sym", e.name);
    return true;
  }
  const std::uint64_t out = e.shape[0], in = e.shape[1];
  const std::vector<std::uint64_t> qshape{out, in / 2}, sshape{out, in / *group};
  if (in % 2 || in % *group || q->second->dtype != "U8" || q->second->shape != qshape ||
      s->second->dtype != "F16" || s->second->shape != sshape)
    ctx.add(Rule::tl_int4, "for " + shape_text(e.shape) + " the pair is qweight U8 " + shape_text(qshape) +
                               " and scales F16 " + shape_text(sshape) + ", not " + q->second->dtype + " " +
                               shape_text(q->second->shape) + " and " + s->second->dtype + " " +
                               shape_text(s->second->shape), e.name);
  return true;
}

std::optional<std::uint64_t> model_group(const DirContext& ctx) {
  for (const FileInventory* f : ctx.model_files)
    if (auto quant = f->metadata_value("quant")) return int4_group(*quant);
  return std::nullopt;
}

void check_inventory(DirContext& ctx, const std::vector<Expected>& expected, const std::string& lm_head_rule_name,
                     std::optional<bool> lm_head_expected) {
  TensorMap tensors;
  for (const FileInventory* f : ctx.model_files)
    for (const auto& t : f->tensors) tensors.emplace(t.name, &t);
  const auto group = model_group(ctx);
  boost::unordered_flat_set<std::string> explained;
  for (const Expected& e : expected) {
    explained.insert(e.name);
    explained.insert(e.name + ".qweight");
    explained.insert(e.name + ".scales");
    const auto it = tensors.find(e.name);
    if (it != tensors.end()) {
      if (it->second->shape != e.shape)
        ctx.add(Rule::ar_shape, "shape " + shape_text(it->second->shape) + ", config.json implies " + shape_text(e.shape), e.name);
    } else if (!(e.linear && check_int4_pair(ctx, e, tensors, group))) {
      ctx.add(e.name == lm_head_rule_name ? Rule::ar_lm_head : Rule::ar_missing_tensor,
              "missing; config.json implies " + shape_text(e.shape), e.name);
    }
  }
  if (lm_head_expected == false && tensors.contains(lm_head_rule_name))
    ctx.add(Rule::ar_lm_head, "present although tie_word_embeddings is true", lm_head_rule_name);
  for (const FileInventory* f : ctx.model_files)
    for (const auto& t : f->tensors)
      if (!explained.contains(t.name) && !(lm_head_expected == false && t.name == lm_head_rule_name))
        ctx.add(Rule::ar_unexpected_tensor, "not part of the architecture's inventory", t.name);
}

void check_llama(DirContext& ctx) {
  const auto l = read_llama(ctx, *ctx.config);
  if (!l) return;
  ctx.summary.architecture = "llama";
  ctx.summary.layers = l->layers;
  auto expected = llama_inventory(*l);
  if (!l->tied) expected.push_back({"lm_head.weight", {l->vocab, l->hidden}, true});
  check_inventory(ctx, expected, "lm_head.weight", !l->tied);
}

void check_bigram(DirContext& ctx) {
  const auto vocab = positive_integer(*ctx.config, "vocab_size");
  if (!vocab) {
    ctx.add(Rule::ar_config, "config.json lacks a positive integer vocab_size");
    return;
  }
  ctx.summary.architecture = "bigram";
  check_inventory(ctx, {{"bigram.weight", {*vocab, *vocab}, false}}, "", std::nullopt);
  for (const FileInventory* f : ctx.model_files)
    for (const auto& t : f->tensors)
      if (t.name == "bigram.weight" && t.dtype != "F32") ctx.add(Rule::ar_shape, "dtype " + t.dtype + ", the bigram is F32", t.name);
}

}  // namespace

void check_architecture(DirContext& ctx) {
  const auto tl_arch = string_field(*ctx.config, "tl_arch");
  const auto model_type = string_field(*ctx.config, "model_type");
  const std::string arch = tl_arch.value_or(model_type.value_or(""));
  // An exporter names ONNX initializers as its graph needs ("onnx::MatMul_123" for a folded or
  // transposed weight): the names the architectures' inventories expect are not there to check.
  const bool onnx = ctx.model_files.empty() ? !ctx.dir().onnx_folder_models.empty()
                                            : ctx.model_files.front()->format == Format::onnx;
  if (onnx) {
    ctx.summary.architecture = arch.empty() ? std::nullopt : std::optional(arch);
    ctx.add(Rule::ar_unknown_architecture, "the weights are ONNX models, whose initializers the exporter names: no inventory check");
    return;
  }
  if (arch == "llama") return check_llama(ctx);
  if (arch == "bigram") return check_bigram(ctx);
  ctx.summary.architecture = arch.empty() ? std::nullopt : std::optional(arch);
  ctx.add(Rule::ar_unknown_architecture,
          arch.empty() ? "config.json names no architecture (model_type or tl_arch)"
                       : "no inventory check for architecture " + quoted(arch));
}

}  // namespace tensorgate::detail
