#include "conversion_builder.hpp"

#include <algorithm>
#include <bit>
#include <boost/json.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <stdexcept>

#include "gguf_builder.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/safetensors/writer.hpp"

namespace tgtest {
namespace {

using tensorgate::Dtype;

std::string u16s(const std::vector<std::uint16_t>& v) {
  std::string out;
  for (const std::uint16_t x : v) out += static_cast<char>(x & 0xff), out += static_cast<char>(x >> 8);
  return out;
}

std::string f32s(const std::vector<float>& v) {
  std::string out(v.size() * 4, '\0');
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::uint64_t elements(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

// Values a trained checkpoint might hold: weights around zero, norms around one.
std::vector<float> values(std::uint64_t n, std::uint32_t& state, bool norm) {
  std::vector<float> v(n);
  for (auto& x : v) {
    state = state * 1664525u + 1013904223u;
    const float u = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;  // [-0.5, 0.5)
    x = norm ? 1.0f + u / 4 : u / 4;
  }
  return v;
}

std::string encode(const std::vector<float>& v, Dtype d) {
  if (d == Dtype::F32) return f32s(v);
  std::vector<std::uint16_t> h(v.size());
  std::transform(v.begin(), v.end(), h.begin(), d == Dtype::BF16 ? to_bf16 : to_f16);
  return u16s(h);
}

// llama.cpp's permute, written the way the converter describes it: for each head h, the rows
// [h, 2, half] are emitted as [h, half, 2].
std::string permute_rows(const std::string& data, std::uint64_t rows, std::uint64_t heads) {
  const std::size_t row_bytes = data.size() / rows;
  const std::uint64_t half = rows / heads / 2;
  std::string out;
  for (std::uint64_t h = 0; h < heads; ++h)
    for (std::uint64_t i = 0; i < half; ++i)
      for (std::uint64_t j = 0; j < 2; ++j) out += data.substr((h * 2 * half + j * half + i) * row_bytes, row_bytes);
  return out;
}

}  // namespace

std::string llama_gguf_name(const std::string& src) {
  static const std::pair<const char*, const char*> kMap[] = {
      {"self_attn.q_proj", "attn_q"},      {"self_attn.k_proj", "attn_k"}, {"self_attn.v_proj", "attn_v"},
      {"self_attn.o_proj", "attn_output"}, {"mlp.gate_proj", "ffn_gate"},  {"mlp.up_proj", "ffn_up"},
      {"mlp.down_proj", "ffn_down"},       {"input_layernorm", "attn_norm"}, {"post_attention_layernorm", "ffn_norm"}};
  if (src == "model.embed_tokens.weight") return "token_embd.weight";
  if (src == "model.norm.weight") return "output_norm.weight";
  if (src == "lm_head.weight") return "output.weight";
  const std::size_t dot = src.find('.', 13);  // after "model.layers."
  const std::string layer = src.substr(13, dot - 13), rest = src.substr(dot + 1, src.size() - dot - 8);
  for (const auto& [from, to] : kMap)
    if (rest == from) return "blk." + layer + "." + to + ".weight";
  throw std::runtime_error("llama_gguf_name: " + src);
}

namespace {

std::string convert_values(const std::vector<float>& v, std::uint32_t type) {
  switch (type) {
    case 0: return f32s(v);
    case 1: return encode(v, Dtype::F16);
    case 30: return encode(v, Dtype::BF16);
    case 8: return quantize_q8_0(v);
    case 2: return quantize_q4_0(v);
    default: throw std::runtime_error("convert_values: type " + std::to_string(type));
  }
}

}  // namespace

// As the converter computes them: float32 frequencies (torch), the rest in Python floats.
std::vector<float> llama3_rope_factors(const TinyLlama& m, const Llama3Rope& r) {
  std::vector<float> out;
  for (std::uint64_t k = 0; k < m.head_dim; k += 2) {
    const float freq = 1.0f / std::pow(static_cast<float>(m.rope_theta), static_cast<float>(k) / static_cast<float>(m.head_dim));
    const double wavelength = 2 * std::numbers::pi / freq;
    const double low = r.original / r.low_freq_factor, high = r.original / r.high_freq_factor;
    double f = r.factor;
    if (wavelength < high) f = 1.0;
    else if (wavelength <= low) {
      const double s = (r.original / wavelength - r.low_freq_factor) / (r.high_freq_factor - r.low_freq_factor);
      f = 1.0 / ((1 - s) / r.factor + s);
    }
    out.push_back(static_cast<float>(f));
  }
  return out;
}

void add_llama_metadata(GgufParts& p, const TinyLlama& m, std::uint32_t weight_type) {
  const auto u32 = [&](const std::string& k, std::uint64_t v) { p.set_u32(k, static_cast<std::uint32_t>(v)); };
  p.kvs.push_back({"general.architecture", kGgufString, GgufBytes().str("llama").bytes()});
  p.kvs.push_back({"general.name", kGgufString, GgufBytes().str("Tiny Llama").bytes()});
  u32("llama.block_count", m.layers);
  u32("llama.context_length", m.context);
  u32("llama.embedding_length", m.hidden);
  u32("llama.feed_forward_length", m.intermediate);
  u32("llama.attention.head_count", m.heads);
  u32("llama.attention.head_count_kv", m.kv_heads);
  p.set_f32("llama.rope.freq_base", static_cast<float>(m.rope_theta));
  p.set_f32("llama.attention.layer_norm_rms_epsilon", static_cast<float>(m.rms_eps));
  u32("llama.rope.dimension_count", m.head_dim);
  u32("llama.attention.key_length", m.head_dim);
  u32("llama.attention.value_length", m.head_dim);
  u32("llama.vocab_size", m.vocab);
  u32("general.file_type", weight_type == 30 ? 32 : weight_type == 0 ? 0 : weight_type == 1 ? 1 : 7);
  p.kvs.push_back({"tokenizer.ggml.model", kGgufString, GgufBytes().str("gpt2").bytes()});
  GgufBytes tokens;
  tokens.u32(kGgufString).u64(m.vocab);
  for (std::uint64_t i = 0; i < m.vocab; ++i) tokens.str("t" + std::to_string(i));
  p.kvs.push_back({"tokenizer.ggml.tokens", kGgufArray, tokens.bytes()});
}

std::string TinyLlama::config_json() const {
  boost::json::object c{{"model_type", "llama"},          {"architectures", boost::json::array{"LlamaForCausalLM"}},
                        {"num_hidden_layers", layers},    {"hidden_size", hidden},
                        {"intermediate_size", intermediate}, {"num_attention_heads", heads},
                        {"num_key_value_heads", kv_heads}, {"head_dim", head_dim},
                        {"vocab_size", vocab},            {"max_position_embeddings", context},
                        {"rope_theta", rope_theta},       {"rms_norm_eps", rms_eps},
                        {"tie_word_embeddings", tied},    {"torch_dtype", "bfloat16"}};
  if (rope)
    c["rope_scaling"] = {{"rope_type", "llama3"}, {"factor", rope->factor}, {"low_freq_factor", rope->low_freq_factor},
                         {"high_freq_factor", rope->high_freq_factor}, {"original_max_position_embeddings", rope->original}};
  else
    c["rope_scaling"] = nullptr;
  return boost::json::serialize(c);
}

GgufTensorPart* GgufParts::find(const std::string& name) {
  for (auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

void GgufParts::erase_tensor(const std::string& name) {
  std::erase_if(tensors, [&](const GgufTensorPart& t) { return t.name == name; });
}

void GgufParts::erase_kv(const std::string& key) {
  std::erase_if(kvs, [&](const GgufKvPart& kv) { return kv.key == key; });
}

void GgufParts::set_u32(const std::string& key, std::uint32_t v) {
  erase_kv(key);
  kvs.push_back({key, kGgufU32, GgufBytes().u32(v).bytes()});
}

void GgufParts::set_f32(const std::string& key, float v) {
  erase_kv(key);
  kvs.push_back({key, kGgufF32, GgufBytes().f32(v).bytes()});
}

std::string GgufParts::build() const {
  GgufBuilder b;
  for (const auto& kv : kvs) b.kv_raw(kv.key, kv.type, kv.value);
  std::string data;
  for (const auto& t : tensors) {
    b.tensor(t.name, t.type, t.dims);
    data += t.data;
    data.resize((data.size() + 31) / 32 * 32, '\0');
  }
  return b.data(data).build();
}

std::vector<std::pair<std::string, std::vector<std::uint64_t>>> checkpoint_shapes(const TinyLlama& m) {
  const std::uint64_t q = m.heads * m.head_dim, kv = m.kv_heads * m.head_dim;
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> shapes{{"model.embed_tokens.weight", {m.vocab, m.hidden}}};
  for (std::uint64_t i = 0; i < m.layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    shapes.push_back({p + "self_attn.q_proj.weight", {q, m.hidden}});
    shapes.push_back({p + "self_attn.k_proj.weight", {kv, m.hidden}});
    shapes.push_back({p + "self_attn.v_proj.weight", {kv, m.hidden}});
    shapes.push_back({p + "self_attn.o_proj.weight", {m.hidden, q}});
    shapes.push_back({p + "mlp.gate_proj.weight", {m.intermediate, m.hidden}});
    shapes.push_back({p + "mlp.up_proj.weight", {m.intermediate, m.hidden}});
    shapes.push_back({p + "mlp.down_proj.weight", {m.hidden, m.intermediate}});
    shapes.push_back({p + "input_layernorm.weight", {m.hidden}});
    shapes.push_back({p + "post_attention_layernorm.weight", {m.hidden}});
  }
  shapes.push_back({"model.norm.weight", {m.hidden}});
  if (!m.tied) shapes.push_back({"lm_head.weight", {m.vocab, m.hidden}});
  return shapes;
}

std::string GgufParts::build_metadata(std::vector<std::uint64_t>& offsets) const {
  GgufBuilder b;
  for (const auto& kv : kvs) b.kv_raw(kv.key, kv.type, kv.value);
  offsets.clear();
  std::uint64_t next = 0;
  for (const auto& t : tensors) {
    offsets.push_back(next);
    b.tensor(t.name, t.type, t.dims);
    next = (next + ggml_tensor_bytes(t.type, t.dims).value_or(0) + 31) / 32 * 32;
  }
  return b.metadata();
}

std::vector<SourceTensorData> make_checkpoint(const TinyLlama& m) {
  std::uint32_t state = m.seed;
  std::vector<SourceTensorData> out;
  for (auto& [name, shape] : checkpoint_shapes(m))
    out.push_back({name, m.dtype, shape, encode(values(elements(shape), state, shape.size() == 1), m.dtype)});
  return out;
}

std::map<std::string, std::string> source_files(const TinyLlama& m, const std::vector<SourceTensorData>& tensors, int shards) {
  std::map<std::string, std::string> files{{"config.json", m.config_json()}};
  boost::json::object weight_map;
  std::uint64_t total = 0;
  for (int k = 0; k < shards; ++k) {
    char name[64];
    std::snprintf(name, sizeof name, "model-%05d-of-%05d.safetensors", k + 1, shards);
    const std::string file = shards == 1 ? "model.safetensors" : name;
    std::vector<tensorgate::TensorSpec> specs;
    for (std::size_t i = static_cast<std::size_t>(k); i < tensors.size(); i += static_cast<std::size_t>(shards)) {
      const auto& t = tensors[i];
      specs.push_back({t.name, t.dtype, t.shape, std::as_bytes(std::span<const char>(t.data))});
      weight_map[t.name] = file;
      total += t.data.size();
    }
    const auto written = tensorgate::write_safetensors(specs, {{"format", "pt"}});
    if (!written.ok()) throw std::runtime_error("source_files: " + written.error);
    files[file] = written.bytes;
  }
  if (shards > 1)
    files["model.safetensors.index.json"] =
        boost::json::serialize(boost::json::object{{"metadata", {{"total_size", total}}}, {"weight_map", weight_map}});
  return files;
}

GgufParts convert(const TinyLlama& m, const std::vector<SourceTensorData>& tensors, const ConvertOptions& o) {
  GgufParts p;
  add_llama_metadata(p, m, o.weight_type);
  if (m.rope && o.rope_freqs)
    p.tensors.push_back({"rope_freqs.weight", 0, {m.head_dim / 2}, f32s(llama3_rope_factors(m, o.rope_as.value_or(*m.rope)))});
  const std::uint32_t source_type = m.dtype == Dtype::BF16 ? 30 : m.dtype == Dtype::F16 ? 1 : 0;
  for (const auto& t : tensors) {
    const std::uint32_t type = t.shape.size() == 1 ? o.norm_type : o.weight_type;
    std::string data = type == source_type ? t.data : convert_values(decode_source(t), type);
    const bool q = t.name.ends_with("q_proj.weight"), k = t.name.ends_with("k_proj.weight");
    if (o.permute_qk && (q || k)) {
      // Quantized rows move whole too: a row is ne0 elements, whole blocks.
      data = permute_rows(data, t.shape[0], q ? m.heads : o.permute_k_heads.value_or(m.kv_heads));
    }
    p.tensors.push_back({llama_gguf_name(t.name), type, std::vector<std::uint64_t>(t.shape.rbegin(), t.shape.rend()), data});
  }
  return p;
}

std::uint16_t to_bf16(float v) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(v);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<std::uint16_t>((x >> 16) | 0x40);
  return static_cast<std::uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

std::uint16_t to_f16(float v) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(v);
  const std::uint32_t sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
  if (ax > 0x7f800000) return static_cast<std::uint16_t>(sign | 0x7e00 | ((ax >> 13) & 0x3ff));
  if (ax >= 0x477ff000) return static_cast<std::uint16_t>(sign | 0x7c00);  // 65520 and up round to infinity
  if (ax < 0x38800000)  // below 2^-14: a multiple of 2^-24, rounded to nearest even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(std::bit_cast<float>(ax) * 0x1p24f)));
  std::uint32_t h = ((((ax >> 23) - 127 + 15) << 10) | ((ax & 0x7fffff) >> 13));
  const std::uint32_t rest = ax & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // a carry runs into the exponent, as it should
  return static_cast<std::uint16_t>(sign | h);
}

std::string quantize_q8_0(const std::vector<float>& v) {
  std::string out;
  for (std::size_t b = 0; b < v.size(); b += 32) {
    float amax = 0;
    for (std::size_t j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(v[b + j]));
    const float d = amax / 127, id = d != 0 ? 1.0f / d : 0.0f;
    out += u16s({to_f16(d)});
    for (std::size_t j = 0; j < 32; ++j) out += static_cast<char>(static_cast<std::int8_t>(std::round(v[b + j] * id)));
  }
  return out;
}

std::string quantize_q4_0(const std::vector<float>& v) {
  std::string out;
  for (std::size_t b = 0; b < v.size(); b += 32) {
    float amax = 0, max = 0;
    for (std::size_t j = 0; j < 32; ++j)
      if (std::fabs(v[b + j]) > amax) amax = std::fabs(v[b + j]), max = v[b + j];
    const float d = max / -8, id = d != 0 ? 1.0f / d : 0.0f;
    out += u16s({to_f16(d)});
    for (std::size_t j = 0; j < 16; ++j) {
      const int lo = std::min(15, static_cast<int>(static_cast<std::int8_t>(v[b + j] * id + 8.5f)));
      const int hi = std::min(15, static_cast<int>(static_cast<std::int8_t>(v[b + j + 16] * id + 8.5f)));
      out += static_cast<char>(lo | hi << 4);
    }
  }
  return out;
}

std::vector<float> decode_source(const SourceTensorData& t) {
  const std::uint64_t n = elements(t.shape);
  std::vector<float> v(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (t.dtype == Dtype::F32) {
      std::memcpy(&v[i], t.data.data() + 4 * i, 4);
      continue;
    }
    const auto h = static_cast<std::uint16_t>(static_cast<unsigned char>(t.data[2 * i]) |
                                              static_cast<unsigned char>(t.data[2 * i + 1]) << 8);
    if (t.dtype == Dtype::BF16) {
      v[i] = std::bit_cast<float>(std::uint32_t{h} << 16);
    } else {
      const int e = (h >> 10) & 31;
      const float mant = static_cast<float>(h & 0x3ff);
      const float mag = e == 0 ? std::ldexp(mant, -24) : e == 31 ? INFINITY : std::ldexp(1024 + mant, e - 25);
      v[i] = (h & 0x8000) ? -mag : mag;
    }
  }
  return v;
}

}  // namespace tgtest
