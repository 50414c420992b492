// GG5: tensor data. Aligned offsets inside the data section and the file, no overlaps, sums
// without wrap-around; llama.cpp's running-sum layout and trailing bytes are warnings.
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;
using tensorgate::Progress;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

TEST(GgufGG5, RunningSumLayoutIsValid) {
  const auto r = check_gguf(base().tensor("a", 0, {3}).tensor("b", 1, {5}).tensor("c", 0, {8}).build());
  ASSERT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "");
  EXPECT_EQ(tgtest::find_rule(r, "GGW.llama-cpp")->message, "llama.cpp's reader loads this file");
  EXPECT_EQ(r.summary.get<tensorgate::GgufSummary>()->data_length, 64u + 32u);
}

TEST(GgufGG5, OffsetNotAMultipleOfTheAlignment) {
  GgufBuilder b = base();
  b.tensor("a", 0, {8}, 16);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.offset-alignment");
  EXPECT_EQ(tgtest::find_rule(r, "GG5.offset-alignment")->offset, b.data_start() + 16);
}

TEST(GgufGG5, Overlap) {
  const auto r = check_gguf(base().tensor("a", 0, {16}).tensor("b", 0, {8}, 32).build());
  EXPECT_EQ(gguf_errors(r), "GG5.overlap");
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.overlap")->tensor, "b");
}

TEST(GgufGG5, TwoTensorsAtTheSameOffset) {
  const auto r = check_gguf(base().tensor("a", 0, {8}, 0).tensor("b", 0, {8}, 0).build());
  EXPECT_EQ(gguf_errors(r), "GG5.overlap");
}

TEST(GgufGG5, EmptyTensorsNeverOverlap) {
  const auto r = check_gguf(base().tensor("a", 0, {16}).tensor("e", 0, {0}, 32).tensor("f", 0, {0}, 0).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
}

TEST(GgufGG5, OverlapFoundWhateverTheOrder) {
  GgufBuilder b = base();
  b.tensor("c", 0, {8}, 96).tensor("a", 0, {8}, 0).tensor("b", 0, {24}, 32).tensor("d", 0, {8}, 64);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.overlap GG5.overlap");  // d and c, both inside b
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.overlap")->tensor, "d");
}

TEST(GgufGG5, DataMissingWithTheSizeKnownIsFinalAtTheInfos) {
  GgufBuilder b = base();
  b.tensor("a", 0, {64}).data(std::string(100, '\0'));
  const std::string f = b.build();
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(f.size());
  EXPECT_EQ(v->feed(std::string_view(f).substr(0, b.data_start())), Progress::invalid);
  EXPECT_EQ(v->bytes_wanted(), 0u);
  const auto r = check_gguf(f);
  EXPECT_EQ(gguf_errors(r), "GG5.truncated");
  EXPECT_EQ(*tgtest::find_rule(r, "GG5.truncated")->tensor, "a");
  ASSERT_TRUE(r.summary.get<tensorgate::GgufSummary>());  // the metadata was sound: the summary stands
}

TEST(GgufGG5, FileEndingInThePaddingBeforeTheData) {
  GgufBuilder b = base();
  b.tensor("e", 0, {0});
  std::string f = b.build();
  f.resize(b.data_start() - 1);
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG5.truncated");
}

TEST(GgufGG5, LastTensorNeedsNoPadding) {
  GgufBuilder b = base();
  b.tensor("a", 0, {3}).data(std::string(12, '\0'));
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "");
}

TEST(GgufGG5, BytesAfterTheLastTensorsPadding) {
  const auto r = check_gguf(base().tensor("a", 0, {3}).trailing(1).build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.trailing-bytes");
  GgufBuilder b = base();
  b.tensor("a", 0, {3}).data(std::string(33, '\0'));
  EXPECT_EQ(gguf_warnings(check_gguf(b.build())), "GGW.trailing-bytes");
}

TEST(GgufGG5, NoTensorsAndTrailingBytes) {
  EXPECT_EQ(gguf_warnings(check_gguf(base().build())), "");
  EXPECT_EQ(gguf_warnings(check_gguf(base().trailing(40).build())), "GGW.trailing-bytes");
}

TEST(GgufGG5, SpecValidLayoutLlamaCppRefuses) {
  // Aligned, inside the file, no overlap, but not the running sum: a gap, then reversed order.
  auto r = check_gguf(base().tensor("a", 0, {8}, 0).tensor("b", 0, {8}, 64).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.layout");
  EXPECT_EQ(*tgtest::find_rule(r, "GGW.layout")->tensor, "b");
  r = check_gguf(base().tensor("a", 0, {8}, 32).tensor("b", 0, {8}, 0).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.layout");
  EXPECT_NE(tgtest::find_rule(r, "GGW.llama-cpp")->message.find("refuses"), std::string::npos);
}

TEST(GgufGG5, ZeroSizeTensorPastTheData) {
  GgufBuilder b = base();
  b.tensor("a", 0, {8}).tensor("e", 0, {0}, 64).data(std::string(32, '\0'));
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG5.truncated");
}

TEST(GgufGG5, OffsetPastTwoToTheSixtyFour) {
  const auto r = check_gguf(base().tensor("a", 0, {8}, ~0ull - 31).build());
  EXPECT_EQ(gguf_errors(r), "GG5.overflow");
}

}  // namespace
