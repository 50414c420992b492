// Lossy targets: F16 and BF16 from wider floats, the block formats Q8_0 and Q4_0 (ggml's
// reference quantizers, written in the conversion builder), each within its threshold and
// pushed beyond it; other quantized types are not compared.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "conversion_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace {

using tensorgate::AuditVerdict;
using tgtest::ConvertOptions;
using tgtest::GgufParts;
using tgtest::TinyLlama;

// Rows of 32: whole Q8_0 and Q4_0 blocks.
TinyLlama block_model(tensorgate::Dtype dtype = tensorgate::Dtype::BF16) {
  TinyLlama m;
  m.head_dim = 8;
  m.hidden = 32;
  m.intermediate = 64;
  m.vocab = 16;
  m.dtype = dtype;
  return m;
}

// A conversion whose weights are written in one lossy type.
struct Lossy : tgtest::Conversion {
  using Conversion::Conversion;
  GgufParts parts(std::uint32_t weight_type) const {
    ConvertOptions o;
    o.weight_type = weight_type;
    return Conversion::parts(o);
  }
};

const tensorgate::Finding& first_error(const tgtest::AuditRun& run) {
  for (const auto& f : run.report.findings)
    if (f.severity == tensorgate::Severity::error) return f;
  throw std::runtime_error("no error: " + run.ids());
}

double largest(const tensorgate::AuditReport& r, bool relative) {
  double v = 0;
  for (const auto& t : r.tensors)
    if (t.max_abs_error) v = std::max(v, relative ? *t.max_rel_error : *t.max_abs_error);
  return v;
}

void expect_within(const tgtest::AuditRun& run, double rel_bound) {
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(run.error_ids(), "");
  EXPECT_EQ(run.report.counts.lossy, 15u);  // 7 weights a layer, 2 layers, and the embedding
  EXPECT_EQ(run.report.counts.exact, 5u);   // the norms, widened
  EXPECT_GT(largest(run.report, true), 0.0);
  EXPECT_LE(largest(run.report, true), rel_bound);
  std::size_t infos = 0;
  for (const auto& f : run.report.findings) infos += tensorgate::rule_info(f.rule).id == "AU.lossy";
  EXPECT_EQ(infos, 15u);
}

TEST(AuditLossy, F16FromF32WithinHalfAnUlp) {
  const Lossy l(block_model(tensorgate::Dtype::F32));
  expect_within(l.audit(l.parts(1)), std::ldexp(1.0, -11));
}

TEST(AuditLossy, BF16FromF32) {
  const Lossy l(block_model(tensorgate::Dtype::F32));
  expect_within(l.audit(l.parts(30)), std::ldexp(1.0, -8));
}

TEST(AuditLossy, F16BeyondItsThreshold) {
  const Lossy l(block_model(tensorgate::Dtype::F32));
  GgufParts p = l.parts(1);
  auto& d = p.find("blk.1.ffn_up.weight")->data;
  d[20] = static_cast<char>(d[20] + 3);  // element 10, three ulps off
  const auto run = l.audit(p);
  EXPECT_FALSE(run.report.faithful);
  EXPECT_EQ(run.error_ids(), "AU.lossy-threshold");
  for (const auto& t : run.report.tensors) {
    if (t.gguf == "blk.1.ffn_up.weight") {
      EXPECT_EQ(t.verdict, AuditVerdict::beyond);
    }
  }
}

TEST(AuditLossy, Q8_0WithinAndBeyond) {
  const Lossy l(block_model());
  expect_within(l.audit(l.parts(8)), 0.0045);
  GgufParts p = l.parts(8);
  auto& d = p.find("blk.0.ffn_gate.weight")->data;
  d[2 + 5] = static_cast<char>(d[2 + 5] + 2);  // block 0, quant 5: two steps of amax/127
  const auto run = l.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.lossy-threshold");
  EXPECT_NE(first_error(run).message.find("1 element beyond"), std::string::npos) << first_error(run).message;
  EXPECT_NE(first_error(run).message.find("element 5:"), std::string::npos);
}

TEST(AuditLossy, Q8_0ScaleOffByFivePercent) {
  const Lossy l(block_model());
  GgufParts p = l.parts(8);
  auto& d = p.find("token_embd.weight")->data;
  const std::uint16_t h = static_cast<std::uint16_t>(static_cast<unsigned char>(d[34]) | static_cast<unsigned char>(d[35]) << 8);
  float scale = std::ldexp(1024.0f + static_cast<float>(h & 0x3ff), ((h >> 10) & 31) - 25);
  const std::uint16_t wrong = tgtest::to_f16(scale * 1.05f);
  d[34] = static_cast<char>(wrong & 0xff);
  d[35] = static_cast<char>(wrong >> 8);
  EXPECT_EQ(l.audit(p).error_ids(), "AU.lossy-threshold");
}

TEST(AuditLossy, Q4_0WithinAndBeyond) {
  const Lossy l(block_model());
  expect_within(l.audit(l.parts(2)), 0.126);
  GgufParts p = l.parts(2);
  auto& d = p.find("blk.1.attn_q.weight")->data;
  d[18 * 3 + 2] = static_cast<char>(d[18 * 3 + 2] ^ 0x88);  // block 3: elements 0 and 16 moved by 8 steps
  const auto run = l.audit(p);
  EXPECT_EQ(run.error_ids(), "AU.lossy-threshold");
  EXPECT_EQ(first_error(run).tensor, "blk.1.attn_q.weight");
}

TEST(AuditLossy, Q4_0UnpermutedIsBeyond) {
  // A lossy target cannot be exact, but a row in the wrong place is far beyond any threshold.
  const Lossy l(block_model());
  ConvertOptions o;
  o.weight_type = 2;
  o.permute_qk = false;
  const auto run = l.audit(tgtest::convert(l.m, l.tensors, o));
  EXPECT_EQ(run.error_ids(), "AU.lossy-threshold AU.lossy-threshold AU.lossy-threshold AU.lossy-threshold");
}

TEST(AuditLossy, OtherQuantizedTypesAreNotCompared) {
  TinyLlama m;
  m.layers = 1;
  m.head_dim = 64;
  m.hidden = 256;
  m.intermediate = 256;
  m.vocab = 4;
  const Lossy l(m);
  GgufParts p = l.parts(30);
  auto* up = p.find("blk.0.ffn_up.weight");
  up->type = 12;  // Q4_K: 144 bytes per 256 elements
  up->data.assign(144 * 256, '\0');
  const auto run = l.audit(p);
  EXPECT_TRUE(run.report.faithful) << run.ids();
  EXPECT_EQ(run.ids(), "AU.not-compared");
  EXPECT_EQ(run.report.findings[0].tensor, "blk.0.ffn_up.weight");
  EXPECT_EQ(run.report.counts.not_compared, 1u);
  bool line = false;
  for (const auto& b : run.report.bytes.lines) line = line || (b.what == "BF16 -> Q4_K" && b.tensors == 1);
  EXPECT_TRUE(line);
}

}  // namespace
