// The audit's parts on their own: the q/k permutation against its definition, the F16 and
// BF16 decoders over every value, the block decoders, the choice of comparison, the name map
// and the llama3 RoPE factors of Llama 3.2 (computed in Python's doubles).
#include <gtest/gtest.h>

#include <cmath>

#include "pairing/arch_table.hpp"
#include "audit/compare.hpp"
#include "pairing/numbers.hpp"
#include "pairing/permute.hpp"
#include "audit/rope.hpp"
#include "conversion_builder.hpp"

namespace {

namespace au = tensorgate::detail::audit;
using tensorgate::Dtype;

// The permutation as docs/audit.md defines it: rows viewed as [n_head, 2, half], the last two axes
// swapped, flattened back; out[k] is the source row at position k of that order.
std::vector<std::uint64_t> by_definition(std::uint64_t rows, std::uint64_t heads) {
  const std::uint64_t half = rows / heads / 2;
  std::vector<std::uint64_t> out;
  for (std::uint64_t h = 0; h < heads; ++h)
    for (std::uint64_t i = 0; i < half; ++i)
      for (std::uint64_t j = 0; j < 2; ++j) out.push_back((h * 2 + j) * half + i);
  return out;
}

TEST(AuditUnits, PermutationIsTheConvertersReshapeAndSwap) {
  for (const auto& [rows, heads] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {8, 4}, {16, 4}, {8, 2}, {12, 2}, {24, 3}, {128, 8}, {2, 1}, {6, 1}}) {
    ASSERT_TRUE(au::permutable_rows(rows, heads));
    const auto want = by_definition(rows, heads);
    for (std::uint64_t r = 0; r < rows; ++r) EXPECT_EQ(au::permuted_source_row(r, rows, heads), want[r]) << rows << "/" << heads;
  }
  EXPECT_FALSE(au::permutable_rows(12, 4));  // 3 rows a head
  EXPECT_FALSE(au::permutable_rows(8, 3));
  EXPECT_FALSE(au::permutable_rows(8, 0));
  // A head of 4 rows: source rows 0 1 | 2 3 become 0 2 1 3 (each rotated pair side by side).
  EXPECT_EQ(by_definition(4, 1), (std::vector<std::uint64_t>{0, 2, 1, 3}));
}

TEST(AuditUnits, F16AndBF16DecodeEveryValue) {
  EXPECT_EQ(au::f16_value(0x3c00), 1.0);
  EXPECT_EQ(au::f16_value(0xc000), -2.0);
  EXPECT_EQ(au::f16_value(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(au::f16_value(0x03ff), std::ldexp(1023.0, -24));
  EXPECT_EQ(au::f16_value(0x7bff), 65504.0);
  EXPECT_TRUE(std::isinf(au::f16_value(0xfc00)) && au::f16_value(0xfc00) < 0);
  EXPECT_TRUE(std::signbit(au::f16_value(0x8000)));
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const double v = au::f16_value(static_cast<std::uint16_t>(h));
    if (std::isnan(v)) {
      EXPECT_EQ(h & 0x7c00, 0x7c00u);
      continue;
    }
    EXPECT_EQ(tgtest::to_f16(static_cast<float>(v)), h) << h;  // decoding is exact: it round-trips
  }
  EXPECT_EQ(au::bf16_float(0x3f80), 1.0f);
  EXPECT_EQ(au::bf16_float(0xc040), -3.0f);
  for (std::uint32_t b = 0; b < 0x10000; b += 7) {
    const float v = au::bf16_float(static_cast<std::uint16_t>(b));
    if (std::isnan(v)) continue;
    EXPECT_EQ(tgtest::to_bf16(v), b);
  }
}

TEST(AuditUnits, BlockDecoders) {
  // Q8_0: d = 1.0 (F16 0x3c00), quants -16..15.
  std::string q8("\x00\x3c", 2);
  for (int j = 0; j < 32; ++j) q8 += static_cast<char>(j - 16);
  double out[32];
  au::decode_q8_0(reinterpret_cast<const std::byte*>(q8.data()), out);
  for (int j = 0; j < 32; ++j) EXPECT_EQ(out[j], j - 16);
  // Q4_0: d = 0.5 (0x3800); byte j holds element j (low nibble) and element j + 16 (high).
  std::string q4("\x00\x38", 2);
  for (int j = 0; j < 16; ++j) q4 += static_cast<char>(j | (15 - j) << 4);
  au::decode_q4_0(reinterpret_cast<const std::byte*>(q4.data()), out);
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(out[j], 0.5 * (j - 8));
    EXPECT_EQ(out[j + 16], 0.5 * (7 - j));
  }
}

TEST(AuditUnits, ComparisonModes) {
  EXPECT_EQ(au::choose_mode(Dtype::BF16, au::kGgmlBF16), au::Mode::bytes);
  EXPECT_EQ(au::choose_mode(Dtype::I32, au::kGgmlI32), au::Mode::bytes);
  EXPECT_EQ(au::choose_mode(Dtype::BF16, au::kGgmlF32), au::Mode::widen);
  EXPECT_EQ(au::choose_mode(Dtype::F16, au::kGgmlF32), au::Mode::widen);
  EXPECT_EQ(au::choose_mode(Dtype::F32, au::kGgmlF64), au::Mode::widen);
  EXPECT_EQ(au::choose_mode(Dtype::BF16, au::kGgmlF16), au::Mode::lossy);  // F16's range is smaller
  EXPECT_EQ(au::choose_mode(Dtype::F16, au::kGgmlBF16), au::Mode::lossy);  // BF16's precision is
  EXPECT_EQ(au::choose_mode(Dtype::F32, au::kGgmlQ8_0), au::Mode::lossy);
  EXPECT_EQ(au::choose_mode(Dtype::BF16, au::kGgmlQ4_0), au::Mode::lossy);
  EXPECT_EQ(au::choose_mode(Dtype::BF16, 12), au::Mode::not_compared);  // Q4_K
  EXPECT_EQ(au::choose_mode(Dtype::F8_E4M3, au::kGgmlF32), au::Mode::not_compared);
  EXPECT_EQ(au::choose_mode(Dtype::I32, au::kGgmlF32), au::Mode::dtype_error);
  EXPECT_EQ(au::choose_mode(Dtype::F32, au::kGgmlI32), au::Mode::dtype_error);
}

TEST(AuditUnits, WideningKeepsSignsAndNaNs) {
  // -0.0 widened must stay -0.0; a NaN may change payload but not become a number.
  const std::uint16_t src[3] = {0x8000, 0x7fc1, 0x3f80};
  const float ok[3] = {-0.0f, NAN, 1.0f};
  au::Comparator good(au::Mode::widen, Dtype::BF16, au::kGgmlF32);
  good.run(reinterpret_cast<const std::byte*>(src), reinterpret_cast<const std::byte*>(ok), 3, 0);
  EXPECT_EQ(good.stats().differing, 0u);
  const float bad[3] = {0.0f, 1.0f, 1.0f};
  au::Comparator wrong(au::Mode::widen, Dtype::BF16, au::kGgmlF32);
  wrong.run(reinterpret_cast<const std::byte*>(src), reinterpret_cast<const std::byte*>(bad), 3, 0);
  EXPECT_EQ(wrong.stats().differing, 2u);
  EXPECT_EQ(wrong.stats().first->index, 0u);
}

TEST(AuditUnits, NameMapOfLlama) {
  const au::ArchSpec* llama = au::find_architecture("llama", "");
  ASSERT_NE(llama, nullptr);
  EXPECT_EQ(au::find_architecture("", "LlamaForCausalLM"), llama);
  EXPECT_EQ(au::find_architecture("mistral", "LlamaForCausalLM"), nullptr);
  const auto map = [&](std::string_view s) { return au::map_name(*llama, s).value_or(au::MappedName{"-", {}}).gguf; };
  EXPECT_EQ(map("model.embed_tokens.weight"), "token_embd.weight");
  EXPECT_EQ(map("model.norm.weight"), "output_norm.weight");
  EXPECT_EQ(map("lm_head.weight"), "output.weight");
  EXPECT_EQ(map("model.layers.27.self_attn.o_proj.weight"), "blk.27.attn_output.weight");
  EXPECT_EQ(map("model.layers.3.self_attn.q_proj.bias"), "blk.3.attn_q.bias");
  EXPECT_EQ(map("model.layers.0.post_attention_layernorm.weight"), "blk.0.ffn_norm.weight");
  EXPECT_EQ(au::map_name(*llama, "model.layers.0.self_attn.k_proj.weight")->order, au::RowOrder::rope_k);
  EXPECT_EQ(map("model.layers.01.mlp.up_proj.weight"), "-");  // not how the converter counts
  EXPECT_EQ(map("model.layers.-1.mlp.up_proj.weight"), "-");
  EXPECT_EQ(map("model.layers.0.self_attn.rotary_emb.inv_freq"), "-");
  EXPECT_EQ(map("model.layers.0.mlp.up_proj.weight.qweight"), "-");
}

TEST(AuditUnits, Llama3RopeFactorsOfLlama32) {
  const au::RopeScaling s{"llama3", 32.0, 1.0, 4.0, 8192.0};
  EXPECT_FALSE(au::rope_scaling_problem(s, 128));
  const std::pair<std::uint64_t, double> python[] = {
      {0, 1.0}, {28, 1.0}, {29, 1.2349370337720829}, {30, 1.6513292457638984}, {31, 2.276659535951085},
      {32, 3.2922621029408843}, {33, 5.17159558306613}, {34, 9.666728978753293}, {35, 32.0}, {63, 32.0}};
  for (const auto& [i, want] : python) {
    EXPECT_NEAR(au::llama3_factor(s, 500000.0, 128, i), want, want * 1e-12) << i;
    EXPECT_TRUE(au::rope_factor_matches(static_cast<float>(want), s, 500000.0, 128, i)) << i;
    EXPECT_FALSE(au::rope_factor_matches(static_cast<float>(want * 1.001), s, 500000.0, 128, i)) << i;
  }
  EXPECT_TRUE(au::rope_scaling_problem(s, 127));
  EXPECT_TRUE(au::rope_scaling_problem(au::RopeScaling{"llama3", 8.0, 4.0, 4.0, 8192.0}, 128));
}

}  // namespace
