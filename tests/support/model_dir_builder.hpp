#pragma once
// Model directories for tests, written into a temporary directory: tiny llamas (tied or not,
// grouped-query, int4), the tinyllm bigram, sharded or single-file, and the real shapes of
// SmolLM2-135M written sparse (the header only; the data is a hole).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/safetensors/dtype.hpp"

namespace tgtest {

struct LlamaShape {
  std::uint64_t layers = 2, hidden = 8, intermediate = 12, heads = 2, kv_heads = 1, head_dim = 4, vocab = 10;
  bool tied = false;
  tensorgate::Dtype dtype = tensorgate::Dtype::F32;
  std::optional<std::uint64_t> int4_group;  // quantize the linear weights
  std::string config_json(bool tinyllm = false) const;
};

struct DirTensor {
  std::string name;
  tensorgate::Dtype dtype;
  std::vector<std::uint64_t> shape;
};

std::vector<DirTensor> llama_tensors(const LlamaShape& s);
std::vector<DirTensor> bigram_tensors(std::uint64_t vocab);

// A scratch directory, removed with the object.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  const std::filesystem::path& path() const { return path_; }
  void write(const std::string& name, const std::string& bytes) const;

  // Writes the tensors as model.safetensors (shards == 1) or model-0000k-of-0000n.safetensors
  // with model.safetensors.index.json; `sparse` writes only headers and extends the files.
  void write_weights(const std::vector<DirTensor>& tensors, int shards,
                     const std::map<std::string, std::string>& metadata = {{"format", "pt"}},
                     bool sparse = false) const;

 private:
  std::filesystem::path path_;
};

}  // namespace tgtest
