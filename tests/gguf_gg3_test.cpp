// GG3: general.alignment, a u32 that is a non-zero power of two (default 32).
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"

using tensorgate::GgufSummary;

namespace {

using namespace tgtest;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

TEST(GgufGG3, DefaultAlignmentIs32) {
  const std::string f = base().tensor("a", 0, {3}).tensor("b", 0, {8}).build();
  const auto r = check_gguf(f);
  ASSERT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(r.summary.get<GgufSummary>()->alignment, 32u);
  EXPECT_EQ(r.summary.get<GgufSummary>()->data_offset % 32, 0u);
  EXPECT_EQ((*r.summary.get<GgufSummary>()->tensors)[1].offset, 32u);  // 12 bytes padded to 32
}

TEST(GgufGG3, PowersOfTwoFrom8AreValid) {
  for (const std::uint32_t a : {8u, 16u, 64u, 256u, 4096u}) {
    GgufBuilder b = base();
    b.alignment(a).tensor("a", 0, {3}).tensor("b", 0, {8});
    const auto r = check_gguf(b.build());
    ASSERT_TRUE(r.valid) << a << ": " << gguf_errors(r);
    EXPECT_EQ(gguf_warnings(r), "") << a;
    EXPECT_EQ(r.summary.get<GgufSummary>()->alignment, a);
    EXPECT_EQ(r.summary.get<GgufSummary>()->data_offset % a, 0u);
  }
}

TEST(GgufGG3, OneTwoAndFourLoadInLlamaCppButBreakTheSpec) {
  for (const std::uint32_t a : {1u, 2u, 4u}) {
    GgufBuilder b = base();
    b.alignment(a).tensor("a", 0, {3}).tensor("b", 0, {8});
    const auto r = check_gguf(b.build());
    EXPECT_TRUE(r.valid) << a;
    EXPECT_EQ(gguf_warnings(r), "GGW.alignment") << a;
  }
}

TEST(GgufGG3, ZeroAndNonPowersOfTwo) {
  for (const std::uint32_t a : {0u, 3u, 24u, 48u, 0xffffffffu}) {
    GgufBuilder b = base();
    b.kv_u32("general.alignment", a).layout_alignment(32).tensor("a", 0, {8});
    EXPECT_EQ(gguf_errors(check_gguf(b.build())), "GG3.alignment-value") << a;
  }
}

TEST(GgufGG3, AnyOtherTypeIsAnError) {
  GgufBuilder b = base();
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_u64("general.alignment", 32).build())), "GG3.alignment-type");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_i32("general.alignment", 32).build())), "GG3.alignment-type");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_str("general.alignment", "32").build())), "GG3.alignment-type");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_u32s("general.alignment", {32}).build())), "GG3.alignment-type");
}

TEST(GgufGG3, HugeAlignmentWithoutTensorsIsValid) {
  const auto r = check_gguf(base().kv_u32("general.alignment", 1u << 31).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(r.summary.get<GgufSummary>()->alignment, 1u << 31);
}

TEST(GgufGG3, HugeAlignmentWithATensorNeedsTheData) {
  GgufBuilder b = base();
  b.kv_u32("general.alignment", 1u << 31).layout_alignment(32).tensor("a", 0, {8});
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.truncated");  // the data section starts at 2^31
}

}  // namespace
