// What the GGUF says against config.json: rope_freqs.weight (missing, wrong, unexpected, in the
// wrong type), the metadata keys (each contradicted, absent, in the wrong type), and the inputs
// the audit refuses to compare (an invalid source or GGUF, an unknown architecture).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "conversion_builder.hpp"
#include "gguf_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace {

using tgtest::ConvertOptions;
using tgtest::GgufParts;
using tgtest::TinyLlama;

using Fixture = tgtest::Conversion;

TEST(AuditRope, MissingRopeFrequencies) {
  Fixture f;
  ConvertOptions o;
  o.rope_freqs = false;
  const auto run = f.audit(f.parts(o));
  EXPECT_FALSE(run.report.faithful);
  EXPECT_EQ(run.error_ids(), "AU.rope-freqs");
  EXPECT_EQ(run.report.findings[0].tensor, "rope_freqs.weight");
  EXPECT_NE(run.report.findings[0].message.find("missing"), std::string::npos);
}

TEST(AuditRope, FactorsOfOtherScalingSettings) {
  Fixture f;
  ConvertOptions o;
  o.rope_as = tgtest::Llama3Rope{8.0, 1.0, 4.0, 8192.0};  // Llama 3.1's factor, the config says 32
  const auto run = f.audit(f.parts(o));
  EXPECT_EQ(run.error_ids(), "AU.rope-freqs");
  EXPECT_NE(run.report.findings[0].message.find("1 of 2 factors differ"), std::string::npos)
      << run.report.findings[0].message;
}

TEST(AuditRope, WithinFloat32Rounding) {
  Fixture f;
  GgufParts p = f.parts();
  auto& data = p.find("rope_freqs.weight")->data;
  const auto nudge = [&](std::int32_t ulps) {
    std::string d = data;
    std::uint32_t bits;
    std::memcpy(&bits, d.data() + 4, 4);
    bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(bits) + ulps);
    std::memcpy(d.data() + 4, &bits, 4);
    GgufParts q = p;
    q.find("rope_freqs.weight")->data = d;
    return f.audit(q);
  };
  EXPECT_TRUE(nudge(2).report.faithful);
  EXPECT_TRUE(nudge(-2).report.faithful);
  EXPECT_EQ(nudge(64).error_ids(), "AU.rope-freqs");
}

TEST(AuditRope, PresentWithoutLlama3Scaling) {
  Fixture f;
  TinyLlama plain = f.m;
  plain.rope.reset();
  f.source["config.json"] = plain.config_json();
  const auto run = f.audit(f.parts());
  EXPECT_EQ(run.error_ids(), "AU.rope-freqs");
  EXPECT_NE(run.report.findings[0].message.find("not of rope_type llama3"), std::string::npos);
}

TEST(AuditRope, WrongTypeOrLength) {
  Fixture f;
  GgufParts p = f.parts();
  auto* r = p.find("rope_freqs.weight");
  r->dims = {4};
  r->data += r->data;
  EXPECT_EQ(f.audit(p).error_ids(), "AU.rope-freqs");
  r->dims = {2};
  r->type = 1;  // F16
  r->data.resize(4);
  EXPECT_EQ(f.audit(p).error_ids(), "AU.rope-freqs");
}

TEST(AuditRope, BrokenScalingConfig) {
  Fixture f;
  TinyLlama broken = f.m;
  broken.rope->high_freq_factor = 1.0;  // equal to low_freq_factor: no smooth band
  f.source["config.json"] = broken.config_json();
  const auto run = f.audit(f.parts());
  EXPECT_EQ(run.error_ids(), "AU.config");
}

// Each key contradicted on its own: exactly one AU.metadata.
TEST(AuditMetadata, EachKeyAgainstTheConfig) {
  Fixture f;
  const std::vector<std::pair<std::string, std::uint32_t>> ints = {
      {"llama.block_count", 3},         {"llama.context_length", 8192},  {"llama.embedding_length", 32},
      {"llama.feed_forward_length", 48}, {"llama.attention.head_count", 8}, {"llama.attention.head_count_kv", 4},
      {"llama.rope.dimension_count", 8}, {"llama.attention.key_length", 8}, {"llama.attention.value_length", 2},
      {"llama.vocab_size", 13}};
  for (const auto& [key, value] : ints) {
    GgufParts p = f.parts();
    p.set_u32(key, value);
    const auto run = f.audit(p);
    EXPECT_EQ(run.error_ids(), "AU.metadata") << key;
    EXPECT_NE(run.report.findings.at(0).message.find(key), std::string::npos) << run.report.findings[0].message;
  }
  for (const auto& [key, value] : std::vector<std::pair<std::string, float>>{
           {"llama.rope.freq_base", 10000.0f}, {"llama.attention.layer_norm_rms_epsilon", 1e-6f}}) {
    GgufParts p = f.parts();
    p.set_f32(key, value);
    EXPECT_EQ(f.audit(p).error_ids(), "AU.metadata") << key;
  }
}

TEST(AuditMetadata, FloatKeysCompareAsF32) {
  Fixture f;
  GgufParts p = f.parts();
  // 1e-5 is not a float: the f32 nearest to it is what the converter writes...
  p.set_f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
  EXPECT_TRUE(f.audit(p).report.faithful);
  // ... and one ulp away is a contradiction.
  p.set_f32("llama.attention.layer_norm_rms_epsilon", std::nextafter(1e-5f, 1.0f));
  EXPECT_EQ(f.audit(p).error_ids(), "AU.metadata");
  // An integer type for a float key is one too.
  p.set_u32("llama.attention.layer_norm_rms_epsilon", 0);
  EXPECT_EQ(f.audit(p).error_ids(), "AU.metadata");
}

TEST(AuditMetadata, AbsentKeysAreLlamaCppsDefaults) {
  Fixture f;
  GgufParts p = f.parts();
  p.erase_kv("llama.vocab_size");           // optional: the tokenizer's count is compared instead
  p.erase_kv("llama.rope.dimension_count");  // 16 / 4 = 4: the config's head_dim
  p.erase_kv("llama.attention.key_length");
  p.erase_kv("llama.attention.value_length");
  EXPECT_TRUE(f.audit(p).report.faithful) << f.audit(p).ids();
  p.erase_kv("llama.attention.head_count_kv");  // llama.cpp would use 4 heads, the config has 2
  EXPECT_EQ(f.audit(p).error_ids(), "AU.metadata");
  GgufParts q = f.parts();
  q.erase_kv("llama.rope.freq_base");  // llama.cpp's 10000, the config's 500000
  EXPECT_EQ(f.audit(q).error_ids(), "AU.metadata");
  GgufParts r = f.parts();
  r.erase_kv("llama.block_count");
  const auto run = f.audit(r);
  EXPECT_EQ(run.error_ids(), "AU.metadata");
  EXPECT_NE(run.report.findings[0].message.find("missing"), std::string::npos);
}

TEST(AuditMetadata, ArchitectureAndVocabulary) {
  Fixture f;
  GgufParts p = f.parts();
  p.erase_kv("general.architecture");
  p.kvs.push_back({"general.architecture", tgtest::kGgufString, tgtest::GgufBytes().str("mistral").bytes()});
  EXPECT_EQ(f.audit(p).ids().substr(0, 11), "AU.metadata");
  GgufParts q = f.parts();
  q.erase_kv("tokenizer.ggml.tokens");
  tgtest::GgufBytes tokens;
  tokens.u32(tgtest::kGgufString).u64(11);
  for (int i = 0; i < 11; ++i) tokens.str("t" + std::to_string(i));
  q.kvs.push_back({"tokenizer.ggml.tokens", tgtest::kGgufArray, tokens.bytes()});
  EXPECT_EQ(f.audit(q).error_ids(), "AU.metadata");
}

TEST(AuditInputs, InvalidSourceOrGguf) {
  Fixture f;
  const std::string gguf = f.parts().build();
  auto sharded = tgtest::source_files(f.m, f.tensors, 2);
  sharded.erase("model-00002-of-00002.safetensors");
  auto run = tgtest::audit_files(sharded, gguf);
  EXPECT_EQ(run.error_ids(), "AU.source-invalid");
  EXPECT_NE(run.report.findings[0].message.find("SH.missing-shard"), std::string::npos) << run.report.findings[0].message;
  run = tgtest::audit_files(f.source, gguf.substr(0, gguf.size() - 40));
  EXPECT_EQ(run.error_ids(), "AU.target-invalid");
  EXPECT_FALSE(run.report.faithful);
  auto no_config = f.source;
  no_config.erase("config.json");
  EXPECT_EQ(tgtest::audit_files(no_config, gguf).error_ids(), "AU.source-invalid");  // MD.config-missing
}

TEST(AuditInputs, ConfigContradictingItsOwnTensorsIsAuditedAnyway) {
  // num_key_value_heads 4 in config.json, 2 in the checkpoint (and in the faithful GGUF): the
  // directory is invalid (AR.shape), and the audit still says what else disagrees.
  Fixture f;
  TinyLlama wrong = f.m;
  wrong.kv_heads = 4;
  f.source["config.json"] = wrong.config_json();
  const auto run = f.audit(f.parts());
  EXPECT_EQ(run.error_ids(), "AU.source-invalid AU.value-mismatch AU.value-mismatch AU.metadata");
  EXPECT_NE(run.report.findings[0].message.find("AR.shape"), std::string::npos);
}

TEST(AuditInputs, UnknownArchitecture) {
  Fixture f;
  std::string config = f.m.config_json();
  config.replace(config.find("\"llama\""), 7, "\"gpt2\"");
  config.replace(config.find("LlamaForCausalLM"), 16, "GPT2LMHeadModel");
  f.source["config.json"] = config;
  const auto run = f.audit(f.parts());
  EXPECT_EQ(run.error_ids(), "AU.architecture");
}

}  // namespace
