// Conversions broken in each way docs/audit.md lists, tensor by tensor: a flipped bit (kept, widened,
// permuted), q/k left unpermuted or permuted with the wrong head count, a missing tensor, an
// unexplained one, a wrong shape, a wrong type. Each gets exactly its AU id.
#include <gtest/gtest.h>

#include "conversion_builder.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/gguf.hpp"

using tensorgate::GgufSummary;

namespace {

using tgtest::ConvertOptions;
using tgtest::GgufParts;
using tgtest::TinyLlama;

using Fixture = tgtest::Conversion;

void flip(GgufParts& p, const std::string& name, std::size_t byte, unsigned bit) {
  auto* t = p.find(name);
  ASSERT_NE(t, nullptr) << name;
  t->data[byte] = static_cast<char>(t->data[byte] ^ (1 << bit));
}

TEST(AuditBroken, FlippedBitInAKeptWeight) {
  Fixture f;
  GgufParts p = f.parts();
  flip(p, "blk.1.ffn_down.weight", 37, 0);  // element 18, low mantissa bit
  const auto run = f.audit(p);
  EXPECT_FALSE(run.report.faithful);
  EXPECT_EQ(run.error_ids(), "AU.value-mismatch");
  const auto& finding = run.report.findings.at(0);
  EXPECT_EQ(finding.tensor, "blk.1.ffn_down.weight");
  EXPECT_NE(finding.message.find("1 element differs from"), std::string::npos) << finding.message;
  EXPECT_NE(finding.message.find("element 18 (GGUF row 0, column 18)"), std::string::npos) << finding.message;
  // The offset is the element's position in the GGUF file.
  const auto g = tensorgate::validate_gguf(p.build());
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < g.summary.get<GgufSummary>()->tensors->size(); ++i)
    if ((*g.summary.get<GgufSummary>()->tensors)[i].name == "blk.1.ffn_down.weight") at = g.summary.get<GgufSummary>()->data_offset + (*g.summary.get<GgufSummary>()->tensors)[i].offset;
  EXPECT_EQ(finding.offset, at + 36);
  EXPECT_EQ(run.report.counts.failed, 1u);
}

TEST(AuditBroken, FlippedBitInAWidenedNorm) {
  Fixture f;
  GgufParts p = f.parts();
  flip(p, "output_norm.weight", 4, 0);  // the lowest bit of an F32 widened from BF16
  const auto run = f.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.value-mismatch");
  EXPECT_EQ(run.report.findings[0].tensor, "output_norm.weight");
}

TEST(AuditBroken, FlippedBitInAPermutedQuery) {
  Fixture f;
  GgufParts p = f.parts();
  flip(p, "blk.0.attn_q.weight", 100, 7);
  const auto run = f.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.value-mismatch");
  EXPECT_EQ(run.report.findings[0].message.find("not applied"), std::string::npos);
}

TEST(AuditBroken, UnpermutedQueryAndKey) {
  Fixture f;
  ConvertOptions o;
  o.permute_qk = false;
  const auto run = f.audit(f.parts(o));
  EXPECT_FALSE(run.report.faithful);
  EXPECT_EQ(run.error_ids(), "AU.value-mismatch AU.value-mismatch AU.value-mismatch AU.value-mismatch");
  for (const auto& finding : run.report.findings) {
    EXPECT_TRUE(finding.tensor->ends_with("attn_q.weight") || finding.tensor->ends_with("attn_k.weight"));
    EXPECT_NE(finding.message.find("permutation was not applied"), std::string::npos) << finding.message;
  }
  EXPECT_EQ(run.report.counts.exact, 16u);
}

TEST(AuditBroken, KeyPermutedWithTheWrongHeadCount) {
  Fixture f;
  ConvertOptions o;
  o.permute_k_heads = 1;  // num_key_value_heads is 2
  const auto run = f.audit(f.parts(o));
  EXPECT_EQ(run.error_ids(), "AU.value-mismatch AU.value-mismatch");
  EXPECT_EQ(run.report.findings[0].tensor, "blk.0.attn_k.weight");
  EXPECT_EQ(run.report.findings[0].message.find("not applied"), std::string::npos);
}

TEST(AuditBroken, MissingTensor) {
  Fixture f;
  GgufParts p = f.parts();
  p.erase_tensor("blk.0.ffn_up.weight");
  const auto run = f.audit(p);
  EXPECT_FALSE(run.report.faithful);
  EXPECT_EQ(run.error_ids(), "AU.missing-tensor");
  EXPECT_EQ(run.report.findings[0].tensor, "blk.0.ffn_up.weight");
  EXPECT_NE(run.report.findings[0].message.find("model.layers.0.mlp.up_proj.weight"), std::string::npos);
  EXPECT_EQ(run.report.tensors.back().verdict, tensorgate::AuditVerdict::missing);
  EXPECT_EQ(run.report.bytes.lines.back().what, "missing from the GGUF");
}

TEST(AuditBroken, UnexplainedTensors) {
  Fixture f;
  GgufParts p = f.parts();
  p.tensors.push_back({"blk.0.attn_extra.weight", 0, {4}, std::string(16, '\0')});
  // Tied embeddings: the converter writes no output.weight.
  p.tensors.push_back({"output.weight", 30, {16, 12}, std::string(384, '\0')});
  const auto run = f.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.unexplained-tensor AU.unexplained-tensor");
  EXPECT_EQ(run.report.findings[0].tensor, "blk.0.attn_extra.weight");
  EXPECT_EQ(run.report.findings[1].tensor, "output.weight");
  EXPECT_EQ(run.report.bytes.lines.back().what, "unexplained");
  EXPECT_EQ(run.report.bytes.lines.back().gguf_bytes, 400u);
}

TEST(AuditBroken, ShapeNotReversed) {
  Fixture f;
  GgufParts p = f.parts();
  auto* v = p.find("blk.0.attn_v.weight");
  v->dims = {8, 16};  // the source's order, not reversed
  const auto run = f.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.shape");
  EXPECT_NE(run.report.findings[0].message.find("[8, 16] reversed is [16, 8]"), std::string::npos)
      << run.report.findings[0].message;
}

TEST(AuditBroken, RowsThatDoNotSplitForThePermutation) {
  // head_dim 3: each head's rows cannot be viewed as [2, rows/heads/2].
  TinyLlama m;
  m.head_dim = 3;
  m.hidden = 12;
  m.rope.reset();
  const auto tensors = tgtest::make_checkpoint(m);
  ConvertOptions o;
  o.permute_qk = false;
  const auto run = tgtest::audit_files(tgtest::source_files(m, tensors), tgtest::convert(m, tensors, o).build());
  EXPECT_EQ(run.error_ids(), "AU.shape AU.shape AU.shape AU.shape");
  EXPECT_NE(run.report.findings[0].message.find("12 rows do not split into 4 heads"), std::string::npos)
      << run.report.findings[0].message;
}

TEST(AuditBroken, IntegerTypeForFloatWeights) {
  Fixture f;
  GgufParts p = f.parts();
  p.find("blk.0.attn_v.weight")->type = 25;  // I16: the same bytes, read as integers
  const auto run = f.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.dtype");
}

TEST(AuditBroken, UnmappedSourceTensorIsAWarning) {
  Fixture f;
  auto tensors = f.tensors;
  tensors.push_back({"model.layers.0.self_attn.rotary_emb.inv_freq", tensorgate::Dtype::F32, {2}, std::string(8, '\0')});
  const auto run = tgtest::audit_files(tgtest::source_files(f.m, tensors), f.parts().build());
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(run.ids(), "AU.unmapped-tensor");
  EXPECT_EQ(run.report.counts.not_compared, 1u);
}

TEST(AuditBroken, FindingsAreCapped) {
  Fixture f;
  ConvertOptions o;
  o.permute_qk = false;
  tensorgate::Limits limits;
  limits.max_findings = 2;
  const auto run = tgtest::audit_files(f.source, f.parts(o).build(), limits);
  EXPECT_FALSE(run.report.faithful);
  EXPECT_EQ(run.report.findings.size(), 2u);
  EXPECT_EQ(run.report.findings_dropped, 2u);
}

}  // namespace
