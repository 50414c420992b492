// The header summary: counts per dtype, a scalar counts 1, architecture from names.
#include <gtest/gtest.h>

#include "st_builder.hpp"
#include "tensorgate/safetensors/writer.hpp"
#include "tensorgate/safetensors/summary.hpp"

using tensorgate::Dtype;

namespace {

tensorgate::SafetensorsSummary summary_of(const std::vector<std::pair<std::string, std::vector<std::uint64_t>>>& tensors,
                                          Dtype dtype = Dtype::F32) {
  std::vector<std::string> storage;
  storage.reserve(tensors.size());
  std::vector<tensorgate::TensorSpec> specs;
  for (const auto& [name, shape] : tensors) {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    storage.emplace_back(n * tensorgate::dtype_info(dtype).bits / 8, '\0');
    specs.push_back({name, dtype, shape, std::as_bytes(std::span<const char>(storage.back().data(), storage.back().size()))});
  }
  const auto file = tensorgate::write_safetensors(specs, {{"format", "pt"}});
  const auto r = tgtest::check(file.bytes);
  EXPECT_TRUE(r.valid) << tgtest::ids(r);
  return *r.summary.get<tensorgate::SafetensorsSummary>();
}

}  // namespace

TEST(Summary, CountsPerDtypeAndTotal) {
  const auto s = summary_of({{"a", {2, 3}}, {"b", {}}, {"c", {0, 5}}});
  EXPECT_EQ(s.tensor_count, 3u);
  EXPECT_EQ(s.parameters, 7u);
  EXPECT_EQ(s.bytes, 28u);
  EXPECT_EQ(s.data_length, 28u);
  ASSERT_EQ(s.by_dtype.size(), 1u);
  EXPECT_EQ(s.by_dtype[0].tensors, 3u);
  EXPECT_EQ(s.metadata_size(), 1u);
}

TEST(Summary, LlamaNamesGiveArchitectureAndLayers) {
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> t{{"model.embed_tokens.weight", {4, 2}},
                                                                   {"model.norm.weight", {2}}};
  for (int i = 0; i < 3; ++i)
    for (const char* p : {"self_attn.q_proj", "self_attn.k_proj", "mlp.gate_proj"})
      t.push_back({"model.layers." + std::to_string(i) + "." + p + ".weight", {2, 2}});
  const auto s = summary_of(t);
  EXPECT_EQ(s.architecture, "llama");
  EXPECT_EQ(s.layers, 3u);
}

TEST(Summary, BigramAndGpt2) {
  EXPECT_EQ(summary_of({{"bigram.weight", {3, 3}}}).architecture, "bigram");
  const auto gpt2 = summary_of({{"h.0.attn.c_attn.weight", {2, 6}}, {"h.11.mlp.c_fc.weight", {2, 2}}});
  EXPECT_EQ(gpt2.architecture, "gpt2");
  EXPECT_EQ(gpt2.layers, 12u);
}

TEST(Summary, UnknownNamesGiveNoArchitecture) {
  const auto s = summary_of({{"foo", {1}}, {"layers.x.y", {1}}});
  EXPECT_FALSE(s.architecture);
  EXPECT_FALSE(s.layers);
}
