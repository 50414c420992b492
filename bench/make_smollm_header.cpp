// Writes a file with SmolLM2-135M's header shape to PATH (a small model users actually have):
// 30 layers, hidden 576, intermediate 1536, 9 heads, 3 key-value heads (head size 64),
// vocabulary 49,152, BF16, tied embeddings, `{"format":"pt"}` metadata; 272 tensors and a
// header of about 30 KB, as `hf download HuggingFaceTB/SmolLM2-135M` shows. The
// header comes from the canonical writer; the ~270 MB data section is made by extending the
// file (sparse), so the file costs its header's size on disk.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tensorgate/safetensors/writer.hpp"

namespace {

constexpr std::uint64_t kLayers = 30, kHidden = 576, kIntermediate = 1536, kHeadSize = 64, kKvHeads = 3,
                        kVocab = 49'152;

std::vector<tensorgate::TensorSpec> smollm_tensors() {
  std::vector<tensorgate::TensorSpec> t;
  const auto add = [&t](std::string name, std::vector<std::uint64_t> shape) {
    t.push_back({std::move(name), tensorgate::Dtype::BF16, std::move(shape), {}});
  };
  add("model.embed_tokens.weight", {kVocab, kHidden});
  add("model.norm.weight", {kHidden});
  for (std::uint64_t l = 0; l < kLayers; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    add(p + "input_layernorm.weight", {kHidden});
    add(p + "post_attention_layernorm.weight", {kHidden});
    add(p + "self_attn.q_proj.weight", {kHidden, kHidden});
    add(p + "self_attn.k_proj.weight", {kKvHeads * kHeadSize, kHidden});
    add(p + "self_attn.v_proj.weight", {kKvHeads * kHeadSize, kHidden});
    add(p + "self_attn.o_proj.weight", {kHidden, kHidden});
    add(p + "mlp.gate_proj.weight", {kIntermediate, kHidden});
    add(p + "mlp.up_proj.weight", {kIntermediate, kHidden});
    add(p + "mlp.down_proj.weight", {kHidden, kIntermediate});
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_smollm_header PATH\n");
    return 2;
  }
  const auto tensors = smollm_tensors();
  std::uint64_t data_length = 0;
  const auto file = tensorgate::write_safetensors_header(tensors, {{"format", "pt"}}, data_length);
  if (!file.ok()) {
    std::fprintf(stderr, "make_smollm_header: %s\n", file.error.c_str());
    return 1;
  }
  const int fd = ::open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ::write(fd, file.bytes.data(), file.bytes.size()) != static_cast<ssize_t>(file.bytes.size()) ||
      ::ftruncate(fd, static_cast<off_t>(file.bytes.size() + data_length)) != 0) {
    std::perror("make_smollm_header");
    return 1;
  }
  ::close(fd);
  std::printf("%s: %zu tensors, header %zu bytes, data %llu bytes\n", argv[1], tensors.size(),
              file.bytes.size() - 8, static_cast<unsigned long long>(data_length));
  return 0;
}
