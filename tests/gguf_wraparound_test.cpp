// Padding and quantized-size wrap-arounds that ggml's reader still accepts or mis-sizes:
// GGML_PAD overflowing to 0, running sums wrapping, type_size x ne wrapping before the division.
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"

namespace {

using namespace tgtest;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

// GGML_PAD(2^64 - 4, 32) = 0: F32 ne0 = 2^62 - 1 is 2^64 - 4 bytes, which the padded-size
// check then took for an empty tensor. Exactly: it ends past 2^64.
TEST(GgufWraparound, PaddingOfANearlyTwoToTheSixtyFourByteTensor) {
  const auto r = check_gguf(base().tensor("w", 0, {(1ull << 62) - 1}, 0).build());
  EXPECT_EQ(gguf_errors(r), "GG5.overflow");
}

// Four tensors of 2^62 bytes at the offsets ggml's running sum gives them: the fourth ends at
// 2^64, where the sum wrapped to 0.
TEST(GgufWraparound, RunningSumReachingTwoToTheSixtyFour) {
  GgufBuilder b = base();
  const std::uint64_t q = 1ull << 62;
  b.tensor("a", 24, {q}, 0).tensor("b", 24, {q}, q).tensor("c", 24, {q}, 2 * q).tensor("d", 24, {q}, 3 * q);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.overflow");
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.overflow")->tensor, "d");
}

// Q8_0 ne0 = 2^62: ggml_row_size computes 34 x 2^62 in size_t, which wraps to 2^63, then divides
// by 32: 2^58 instead of the true 34 x 2^57 bytes. The exact size is what must fit in the file.
TEST(GgufWraparound, QuantizedRowSizeWrapsBeforeTheDivision) {
  GgufBuilder b = base();
  b.tensor("w", 8, {1ull << 62}, 0);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.truncated");
  const std::string end = std::to_string(b.data_start() + (1ull << 57) * 34);
  EXPECT_NE(tgtest::find_rule(r, "GG5.truncated")->message.find("runs to byte " + end), std::string::npos)
      << tgtest::find_rule(r, "GG5.truncated")->message;
}

// Offset + size wrapping in 64 bits: the tensor ends past 2^64 however the sum is computed.
TEST(GgufWraparound, OffsetPlusSizeWraps) {
  const auto r = check_gguf(base().tensor("w", 0, {64}, ~0ull - 127).build());
  EXPECT_EQ(gguf_errors(r), "GG5.overflow");
}

// Two tensors whose padded sizes sum to 2^64, where ggml's ctx->size wrapped to 0: F32 2^61 - 1
// is 2^63 - 4 bytes, padded 2^63; the second one, at the running sum, ends past 2^64.
TEST(GgufWraparound, PaddedSumOfTwoLargeTensors) {
  const std::uint64_t n = (1ull << 61) - 1;
  GgufBuilder b = base();
  b.tensor("a", 0, {n}, 0).tensor("b", 0, {n}, 1ull << 63);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.overflow");
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.overflow")->tensor, "b");
  EXPECT_EQ(gguf_warnings(r), "");  // the offsets are ggml's running sum
}

// A zero dimension makes the product zero even when the other dimensions' product wraps.
TEST(GgufWraparound, ZeroDimensionAfterAWrappingPrefix) {
  const std::uint64_t max = (1ull << 63) - 1;
  const auto r = check_gguf(base().tensor("w", 0, {max, max, 0}).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(r.summary.get<tensorgate::GgufSummary>()->parameters, 0u);
}

}  // namespace
