// The tensor-size overflow advisories against ggml's GGUF reader after 2024: sizes and sums
// that wrapped around 2^64 in size_t arithmetic. Every size here is exact (128-bit).
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;
using tensorgate::Progress;

constexpr std::uint64_t k63 = std::uint64_t{1} << 63;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

// CVE-2025-53630: ctx->size, the sum of the padded tensor sizes, wrapped around; two tensors
// at 0 and 2^63 made a tiny data buffer that later reads ran past.
TEST(GgufSizeOverflow, Cve2025_53630_TensorsAtZeroAndTwoToThe63) {
  GgufBuilder b = base();
  b.tensor("a", 24, {k63 - 1}, 0).tensor("b", 24, {k63 - 1}, k63);
  const auto r = check_gguf(b.build());
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(gguf_errors(r), "GG5.overflow");
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.overflow")->tensor, "b");
}

// GHSA-3p4r-fq3f-q74v (after CVE-2025-53630): the context size, overhead + data size, wrapped.
// The data must lie in the file, so such a size is a truncation, found from the header.
TEST(GgufSizeOverflow, ContextSizeNearTwoToTheSixtyFour) {
  GgufBuilder b = base();
  b.tensor("a", 24, {k63 - 1}, 0);
  const std::string f = b.build();
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(f.size());
  EXPECT_EQ(v->feed(std::string_view(f).substr(0, b.data_start())), Progress::invalid);
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG5.truncated");
}

// The ggml_nbytes / ggml_row_size advisory (CVE-2026-33298 and its bypass): the element count
// was checked against int64 but the byte size, type_size x ne / block, wrapped in size_t.
TEST(GgufSizeOverflow, ByteSizeWrapsWhileTheElementCountFits) {
  EXPECT_EQ(gguf_errors(check_gguf(base().tensor("w", 28, {1ull << 61}, 0).build())), "GG4.byte-size");  // F64
  EXPECT_EQ(gguf_errors(check_gguf(base().tensor("w", 27, {1ull << 60, 4}, 0).build())), "GG4.byte-size");  // I64
  EXPECT_EQ(gguf_errors(check_gguf(base().tensor("w", 26, {1ull << 31, 1ull << 31}, 0).build())), "GG4.byte-size");
}

// The stride PoC: F32 ne0 = 2^62 gives nb[1] = 2^64 = 0, a zero-byte tensor of 2^62 elements.
TEST(GgufSizeOverflow, StrideOfTwoToTheSixtyFour) {
  EXPECT_EQ(gguf_errors(check_gguf(base().tensor("w", 0, {1ull << 62}, 0).build())), "GG4.byte-size");
}

// llama.cpp PR #18674: a real model's token_embd.weight with ne1 patched to 2^42 + 1, so that
// its size times the stride wraps; the data now runs over the next tensors'.
TEST(GgufSizeOverflow, PatchedDimensionOverlapsTheNextTensor) {
  GgufBuilder b = base();
  b.tensor("token_embd.weight", 8, {1152, 2}).tensor("blk.0.attn_k.weight", 8, {1152, 2});
  std::string f = b.build();
  // Patch ne1 of the first tensor in place.
  const std::size_t ne1 = 24 + 45 + 8 + 17 + 4 + 8;
  const std::string patched = GgufBytes().u64((1ull << 42) + 1).bytes();
  ASSERT_EQ(f.substr(ne1, 8), GgufBytes().u64(2).bytes());
  f.replace(ne1, 8, patched);
  const auto r = check_gguf(f);
  EXPECT_EQ(gguf_errors(r), "GG5.overlap");
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.overlap")->tensor, "blk.0.attn_k.weight");
}

// The division by zero in ggml's element-count guard (ne[1] = 0 with n_dims >= 2): an empty
// tensor, valid.
TEST(GgufSizeOverflow, ZeroSecondDimension) {
  const auto r = check_gguf(base().tensor("w", 0, {4, 0}).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ((*r.summary.get<tensorgate::GgufSummary>()->tensors)[0].bytes, 0u);
}

}  // namespace
