#pragma once
// Conversions the audit tests make themselves: a tiny llama checkpoint (grouped-query attention,
// llama3 RoPE scaling) as a model directory, and a GGUF converted from it the way llama.cpp's
// convert_hf_to_gguf.py does (q/k rows permuted, norms widened to F32, rope_freqs.weight
// generated, metadata written), written independently of the audit's own code so that one
// checks the other. Every way of breaking a conversion is a mutation of the GGUF's parts before
// they are written. No GoogleTest here: the benchmark, the fuzzer and a tool use it too.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/audit.hpp"
#include "tensorgate/safetensors/dtype.hpp"

namespace tgtest {

struct Llama3Rope {
  double factor = 32.0, low_freq_factor = 1.0, high_freq_factor = 4.0, original = 8192.0;
};

// The checkpoint: shapes, config values and the source dtype.
struct TinyLlama {
  std::uint64_t layers = 2, heads = 4, kv_heads = 2, head_dim = 4, hidden = 16, intermediate = 24, vocab = 12;
  std::uint64_t context = 131072;
  double rope_theta = 500000.0, rms_eps = 1e-5;
  std::optional<Llama3Rope> rope = Llama3Rope{};
  bool tied = true;
  tensorgate::Dtype dtype = tensorgate::Dtype::BF16;
  std::uint32_t seed = 1;
  std::string config_json() const;
};

// One tensor of the GGUF being written, and one metadata pair (value bytes already encoded).
struct GgufTensorPart {
  std::string name;
  std::uint32_t type;               // ggml type id
  std::vector<std::uint64_t> dims;  // ne0 first
  std::string data;
};
struct GgufKvPart {
  std::string key;
  std::uint32_t type;  // GGUF value type
  std::string value;
};

struct GgufParts {
  std::vector<GgufKvPart> kvs;
  std::vector<GgufTensorPart> tensors;
  GgufTensorPart* find(const std::string& name);
  void erase_tensor(const std::string& name);
  void set_u32(const std::string& key, std::uint32_t v);
  void set_f32(const std::string& key, float v);
  void erase_kv(const std::string& key);
  std::string build() const;
  // The header, pairs, tensor infos and padding only (the data is written elsewhere), with each
  // tensor's offset in the data section.
  std::string build_metadata(std::vector<std::uint64_t>& offsets) const;
};

// How the converter under test behaves.
struct ConvertOptions {
  std::uint32_t weight_type = 30;  // ggml type of 2-D weights: 30 BF16, 0 F32, 1 F16, 8 Q8_0, 2 Q4_0, ...
  std::uint32_t norm_type = 0;     // of 1-D tensors: F32 (widened), or the source's type
  bool permute_qk = true;
  std::optional<std::uint64_t> permute_k_heads;  // permute k with another head count (a wrong file)
  bool rope_freqs = true;          // generate rope_freqs.weight when the config calls for it
  std::optional<Llama3Rope> rope_as;  // compute the factors with other settings (a wrong file)
};

// The checkpoint's tensor names and shapes in llama order (no data: benchmarks write their own).
std::vector<std::pair<std::string, std::vector<std::uint64_t>>> checkpoint_shapes(const TinyLlama& m);
// llama.cpp's name for a source tensor, the metadata the converter writes, and the llama3 RoPE
// factors as it computes them (float32 frequencies).
std::string llama_gguf_name(const std::string& source);
void add_llama_metadata(GgufParts& p, const TinyLlama& m, std::uint32_t weight_type);
std::vector<float> llama3_rope_factors(const TinyLlama& m, const Llama3Rope& r);

// The checkpoint's tensors in llama order, values from a seeded generator.
struct SourceTensorData {
  std::string name;
  tensorgate::Dtype dtype;
  std::vector<std::uint64_t> shape;
  std::string data;
};
std::vector<SourceTensorData> make_checkpoint(const TinyLlama& m);

// The model directory's files: config.json and model.safetensors, or `shards` shards with
// model.safetensors.index.json.
std::map<std::string, std::string> source_files(const TinyLlama& m, const std::vector<SourceTensorData>& tensors,
                                                int shards = 1);

GgufParts convert(const TinyLlama& m, const std::vector<SourceTensorData>& tensors, const ConvertOptions& o = {});

// Everything of one audit, held in memory: validates the files, runs audit_conversion.
struct AuditRun {
  tensorgate::AuditReport report;
  std::string ids() const;         // the AU findings' ids, "AU.x AU.y", in order
  std::string error_ids() const;   // ... of errors only
  bool has(const std::string& id) const;
};
AuditRun audit_files(const std::map<std::string, std::string>& source, const std::string& gguf,
                     const tensorgate::Limits& limits = {});
// The same, each file's ByteSource wrapped (to record or fail reads); the GGUF is "model.gguf".
using SourceWrap = std::function<tensorgate::ByteSource*(const std::string& file, tensorgate::ByteSource& inner)>;
AuditRun audit_files(const std::map<std::string, std::string>& source, const std::string& gguf,
                     const tensorgate::Limits& limits, const SourceWrap& wrap);

// Where every audit test starts: a checkpoint of model `m`, its model directory, and the
// converter's GGUF of it (with options that break it in one way or another).
struct Conversion {
  explicit Conversion(TinyLlama model = {})
      : m(model), tensors(make_checkpoint(m)), source(source_files(m, tensors)) {}
  GgufParts parts(const ConvertOptions& o = {}) const { return convert(m, tensors, o); }
  AuditRun audit(const GgufParts& p) const { return audit_files(source, p.build()); }

  TinyLlama m;
  std::vector<SourceTensorData> tensors;
  std::map<std::string, std::string> source;
};

// Numbers as a converter writes them.
std::uint16_t to_bf16(float v);   // round to nearest even
std::uint16_t to_f16(float v);    // round to nearest even, overflow to infinity
std::string quantize_q8_0(const std::vector<float>& values);  // ggml's reference quantizer
std::string quantize_q4_0(const std::vector<float>& values);
std::vector<float> decode_source(const SourceTensorData& t);

}  // namespace tgtest
