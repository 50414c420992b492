#include "model_dir_builder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>

#include "tensorgate/safetensors/writer.hpp"

namespace tgtest {
namespace fs = std::filesystem;

std::string LlamaShape::config_json(bool tinyllm) const {
  boost::json::object c{{"model_type", "llama"}, {"num_hidden_layers", layers}, {"hidden_size", hidden},
                        {"intermediate_size", intermediate}, {"num_attention_heads", heads},
                        {"num_key_value_heads", kv_heads}, {"head_dim", head_dim}, {"vocab_size", vocab},
                        {"tie_word_embeddings", tied}, {"rms_norm_eps", 1e-5}};
  if (tinyllm) {
    c["tl_arch"] = "llama";
    c["tl_tokenizer"] = "byte";
  }
  return boost::json::serialize(c);
}

std::vector<DirTensor> llama_tensors(const LlamaShape& s) {
  const auto q = s.heads * s.head_dim, kv = s.kv_heads * s.head_dim;
  std::vector<DirTensor> t{{"model.embed_tokens.weight", s.dtype, {s.vocab, s.hidden}},
                           {"model.norm.weight", s.dtype, {s.hidden}}};
  const auto linear = [&](const std::string& name, std::uint64_t out, std::uint64_t in) {
    if (!s.int4_group) {
      t.push_back({name, s.dtype, {out, in}});
      return;
    }
    t.push_back({name + ".qweight", tensorgate::Dtype::U8, {out, in / 2}});
    t.push_back({name + ".scales", tensorgate::Dtype::F16, {out, in / *s.int4_group}});
  };
  for (std::uint64_t i = 0; i < s.layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    linear(p + "self_attn.q_proj.weight", q, s.hidden);
    linear(p + "self_attn.k_proj.weight", kv, s.hidden);
    linear(p + "self_attn.v_proj.weight", kv, s.hidden);
    linear(p + "self_attn.o_proj.weight", s.hidden, q);
    linear(p + "mlp.gate_proj.weight", s.intermediate, s.hidden);
    linear(p + "mlp.up_proj.weight", s.intermediate, s.hidden);
    linear(p + "mlp.down_proj.weight", s.hidden, s.intermediate);
    t.push_back({p + "input_layernorm.weight", s.dtype, {s.hidden}});
    t.push_back({p + "post_attention_layernorm.weight", s.dtype, {s.hidden}});
  }
  if (!s.tied) linear("lm_head.weight", s.vocab, s.hidden);
  return t;
}

std::vector<DirTensor> bigram_tensors(std::uint64_t vocab) {
  return {{"bigram.weight", tensorgate::Dtype::F32, {vocab, vocab}}};
}

ScratchDir::ScratchDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("tensorgate-test-" + std::to_string(rd()) + std::to_string(::getpid()));
  fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void ScratchDir::write(const std::string& name, const std::string& bytes) const {
  std::ofstream(path_ / name, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

namespace {

// One file's bytes (or, sparse, its header and its total size).
void write_file(const fs::path& path, const std::vector<const DirTensor*>& tensors,
                const std::map<std::string, std::string>& metadata, bool sparse) {
  std::vector<std::string> data;
  data.reserve(tensors.size());
  std::vector<tensorgate::TensorSpec> specs;
  for (const DirTensor* t : tensors) {
    std::uint64_t elements = 1;
    for (auto d : t->shape) elements *= d;
    data.emplace_back(sparse ? 0 : elements * tensorgate::dtype_info(t->dtype).bits / 8, '\0');
    specs.push_back({t->name, t->dtype, t->shape, std::as_bytes(std::span<const char>(data.back()))});
  }
  const tensorgate::Metadata meta(metadata.begin(), metadata.end());
  std::uint64_t data_length = 0;
  const auto out = sparse ? tensorgate::write_safetensors_header(specs, meta, data_length)
                          : tensorgate::write_safetensors(specs, meta);
  if (!out.ok()) throw std::runtime_error("write_file: " + out.error);
  std::ofstream(path, std::ios::binary).write(out.bytes.data(), static_cast<std::streamsize>(out.bytes.size()));
  if (sparse) fs::resize_file(path, out.bytes.size() + data_length);
}

}  // namespace

void ScratchDir::write_weights(const std::vector<DirTensor>& tensors, int shards,
                               const std::map<std::string, std::string>& metadata, bool sparse) const {
  if (shards == 1) {
    std::vector<const DirTensor*> all;
    for (const auto& t : tensors) all.push_back(&t);
    write_file(path_ / "model.safetensors", all, metadata, sparse);
    return;
  }
  boost::json::object weight_map;
  std::uint64_t total = 0;
  for (int k = 0; k < shards; ++k) {
    char name[64];
    std::snprintf(name, sizeof name, "model-%05d-of-%05d.safetensors", k + 1, shards);
    std::vector<const DirTensor*> part;
    for (std::size_t i = static_cast<std::size_t>(k); i < tensors.size(); i += static_cast<std::size_t>(shards)) {
      part.push_back(&tensors[i]);
      weight_map[tensors[i].name] = name;
      std::uint64_t elements = 1;
      for (auto d : tensors[i].shape) elements *= d;
      total += elements * tensorgate::dtype_info(tensors[i].dtype).bits / 8;
    }
    write_file(path_ / name, part, metadata, sparse);
  }
  const boost::json::object index{{"metadata", {{"total_size", total}}}, {"weight_map", weight_map}};
  write("model.safetensors.index.json", boost::json::serialize(index));
}

}  // namespace tgtest
