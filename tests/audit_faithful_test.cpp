// Faithful conversions of a tiny llama (grouped-query attention, llama3 RoPE scaling): single
// file and sharded, BF16 weights kept, norms widened to F32, q/k permuted, rope_freqs
// generated. Every tensor is exact, and the byte accounting adds up to the difference.
#include <gtest/gtest.h>

#include "conversion_builder.hpp"
#include "tensorgate/report_writers.hpp"

namespace {

using tensorgate::AuditVerdict;
using tgtest::TinyLlama;

const tensorgate::AuditTensor* row(const tensorgate::AuditReport& r, const std::string& gguf) {
  for (const auto& t : r.tensors)
    if (t.gguf == gguf) return &t;
  return nullptr;
}

tgtest::AuditRun faithful(const TinyLlama& m, int shards = 1, const tgtest::ConvertOptions& o = {}) {
  const auto tensors = tgtest::make_checkpoint(m);
  return tgtest::audit_files(tgtest::source_files(m, tensors, shards), tgtest::convert(m, tensors, o).build());
}

TEST(AuditFaithful, EveryTensorExact) {
  const TinyLlama m;
  const auto run = faithful(m);
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(run.error_ids(), "");
  EXPECT_EQ(run.report.architecture, "llama");
  // 2 layers x 9 + embedding + final norm, all exact; rope_freqs generated.
  EXPECT_EQ(run.report.counts.exact, 20u);
  EXPECT_EQ(run.report.counts.generated, 1u);
  EXPECT_EQ(run.report.counts.failed, 0u);
  EXPECT_EQ(run.report.tensors.size(), 21u);
  const auto* q = row(run.report, "blk.1.attn_q.weight");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->source, "model.layers.1.self_attn.q_proj.weight");
  EXPECT_EQ(q->transform, "kept BF16, q rows permuted (4 heads)");
  EXPECT_EQ(q->verdict, AuditVerdict::exact);
  EXPECT_EQ(q->shape, (std::vector<std::uint64_t>{16, 16}));
  EXPECT_EQ(row(run.report, "blk.0.attn_k.weight")->transform, "kept BF16, k rows permuted (2 heads)");
  EXPECT_EQ(row(run.report, "blk.0.attn_norm.weight")->transform, "BF16->F32 widened");
  EXPECT_EQ(row(run.report, "rope_freqs.weight")->verdict, AuditVerdict::generated);
}

TEST(AuditFaithful, ByteAccountingAddsUp) {
  const TinyLlama m;
  const auto run = faithful(m);
  const auto& b = run.report.bytes;
  // BF16 source: (12x16 + 2 x (16x16 + 8x16 x 2 + 16x16 + 24x16 x 3 + 16 x 2) + 16) x 2 bytes.
  const std::uint64_t source = (12 * 16 + 2 * (256 + 128 * 2 + 256 + 384 * 3 + 32) + 16) * 2;
  EXPECT_EQ(b.source_tensor_bytes, source);
  EXPECT_EQ(b.source_files, 1u);
  // 5 norms of 16 elements widened (+2 bytes each), rope_freqs: 2 F32 factors.
  EXPECT_EQ(b.gguf_tensor_bytes, source + 5 * 16 * 2 + 2 * 4);
  ASSERT_EQ(b.lines.size(), 3u);
  EXPECT_EQ(b.lines[0].what, "generated rope_freqs.weight");
  EXPECT_EQ(b.lines[0].gguf_bytes, 8u);
  EXPECT_EQ(b.lines[1].what, "BF16 kept");
  EXPECT_EQ(b.lines[1].tensors, 15u);
  EXPECT_EQ(b.lines[1].gguf_bytes, b.lines[1].source_bytes);
  EXPECT_EQ(b.lines[2].what, "BF16 -> F32");
  EXPECT_EQ(b.lines[2].tensors, 5u);
  EXPECT_EQ(b.lines[2].gguf_bytes - b.lines[2].source_bytes, 160u);
  std::uint64_t src = 0, dst = 0;
  for (const auto& l : b.lines) src += l.source_bytes, dst += l.gguf_bytes;
  EXPECT_EQ(src, b.source_tensor_bytes);
  EXPECT_EQ(dst, b.gguf_tensor_bytes);
}

TEST(AuditFaithful, ShardedSource) {
  const TinyLlama m;
  const auto run = faithful(m, 3);
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(run.report.bytes.source_files, 3u);
  EXPECT_EQ(run.report.counts.exact, 20u);
}

TEST(AuditFaithful, UntiedWithOutputAndWithoutRopeScaling) {
  TinyLlama m;
  m.tied = false;
  m.rope.reset();
  const auto run = faithful(m);
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(run.report.counts.exact, 21u);
  EXPECT_EQ(run.report.counts.generated, 0u);
  EXPECT_EQ(row(run.report, "output.weight")->source, "lm_head.weight");
}

TEST(AuditFaithful, KeptNormsAndF32Source) {
  TinyLlama m;
  m.dtype = tensorgate::Dtype::F32;
  tgtest::ConvertOptions o;
  o.weight_type = 0;
  const auto run = faithful(m, 1, o);
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(row(run.report, "blk.0.attn_norm.weight")->transform, "kept F32");
  EXPECT_EQ(run.report.bytes.gguf_tensor_bytes, run.report.bytes.source_tensor_bytes + 8);
}

TEST(AuditFaithful, LargerHeadsAndOddHalves) {
  // head_dim 6: each head's rows split into halves of 3, so the permutation is not its own
  // inverse; 6 heads and 3 kv heads.
  TinyLlama m;
  m.heads = 6;
  m.kv_heads = 3;
  m.head_dim = 6;
  m.hidden = 36;
  const auto run = faithful(m);
  EXPECT_TRUE(run.report.faithful) << run.ids();
}

TEST(AuditFaithful, JsonAndTextReports) {
  const auto run = faithful(TinyLlama{});
  std::vector<tensorgate::CheckedFile> files{{"model.gguf", std::nullopt, std::nullopt, std::nullopt, run.report}};
  std::string json, text;
  tensorgate::write_json_report(files, {}, [&](std::string_view s) { json += s; });
  tensorgate::write_text_report(files, {}, [&](std::string_view s) { text += s; });
  EXPECT_NE(json.find("\"format\":\"conversion-audit\""), std::string::npos) << json.substr(0, 400);
  EXPECT_NE(json.find("\"valid\":true"), std::string::npos);
  EXPECT_NE(json.find("\"verdict\":\"generated\""), std::string::npos);
  EXPECT_NE(text.find("FAITHFUL conversion"), std::string::npos) << text;
  EXPECT_NE(text.find("model.layers.0.self_attn.q_proj.weight"), std::string::npos);
  EXPECT_NE(text.find("BF16 -> F32"), std::string::npos);
}

}  // namespace
