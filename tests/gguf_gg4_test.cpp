// GG4: tensor infos. Names, shapes, element counts and byte sizes exact, ggml's type table.
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

using tensorgate::GgufSummary;

namespace {

using namespace tgtest;

constexpr std::uint64_t k63 = std::uint64_t{1} << 63;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

std::string one(std::uint32_t type, const std::vector<std::uint64_t>& dims, std::string_view name = "w") {
  return base().tensor(name, type, dims, 0).build();
}

TEST(GgufGG4, SixtyFourByteNameIsValidButWarned) {
  const auto r = check_gguf(one(0, {8}, std::string(64, 'n')));
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.name-length");
  EXPECT_EQ(tgtest::find_rule(r, "GGW.llama-cpp")->message, "llama.cpp's reader refuses this file: a 64-byte tensor name");
  EXPECT_TRUE(check_gguf(one(0, {8}, std::string(63, 'n'))).valid);
  EXPECT_EQ(gguf_warnings(check_gguf(one(0, {8}, std::string(63, 'n')))), "");
}

TEST(GgufGG4, SixtyFiveByteNameIsAnError) {
  const auto r = check_gguf(one(0, {8}, std::string(65, 'n')));
  EXPECT_EQ(gguf_errors(r), "GG4.name-length");
}

TEST(GgufGG4, DuplicateName) {
  const auto r = check_gguf(base().tensor("w", 0, {8}).tensor("w", 0, {8}).build());
  EXPECT_EQ(gguf_errors(r), "GG4.duplicate-name");
  EXPECT_EQ(*tgtest::find_rule(r, "GG4.duplicate-name")->tensor, "w");
}

TEST(GgufGG4, AMillionTensorInfosInLinearTime) {
  GgufBuilder b = base();
  for (int i = 0; i < 1000000; ++i) b.tensor("blk." + std::to_string(i) + ".w", 0, {0});
  b.tensor("blk.7.w", 0, {0});
  const auto r = tensorgate::validate_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG4.duplicate-name");
}

TEST(GgufGG4, MoreThanFourDimensions) {
  const auto r = check_gguf(one(0, {1, 1, 1, 1, 8}));
  EXPECT_EQ(gguf_errors(r), "GG4.n-dims");
  EXPECT_TRUE(check_gguf(one(0, {8, 1, 1, 1})).valid);
}

TEST(GgufGG4, ScalarAndEmptyTensors) {
  auto r = check_gguf(one(0, {}));
  ASSERT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(r.summary.get<GgufSummary>()->parameters, 1u);
  r = check_gguf(base().tensor("a", 0, {4, 0}).tensor("b", 0, {0}).build());
  ASSERT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(r.summary.get<GgufSummary>()->parameters, 0u);
}

TEST(GgufGG4, DimensionAboveInt64) {
  EXPECT_EQ(gguf_errors(check_gguf(one(24, {k63}))), "GG4.dim");
  EXPECT_EQ(gguf_errors(check_gguf(one(24, {4, ~0ull}))), "GG4.dim");
  // 2^63-1 is a dimension ggml takes; the data is then missing.
  EXPECT_EQ(gguf_errors(check_gguf(one(24, {k63 - 1}))), "GG5.truncated");
}

TEST(GgufGG4, ElementCountComputedExactly) {
  EXPECT_EQ(gguf_errors(check_gguf(one(0, {1ull << 62, 4}))), "GG4.element-count");
  EXPECT_EQ(gguf_errors(check_gguf(one(0, {4, 1ull << 62}))), "GG4.element-count");
  EXPECT_EQ(gguf_errors(check_gguf(one(24, {1ull << 31, 1ull << 31, 2}))), "GG4.element-count");
  EXPECT_EQ(gguf_errors(check_gguf(one(24, {k63 - 1, 2}))), "GG4.element-count");
  EXPECT_EQ(gguf_errors(check_gguf(one(24, {k63 - 1, k63 - 1, k63 - 1, k63 - 1}))), "GG4.element-count");
  // A zero dimension makes the tensor empty, whatever the others.
  EXPECT_TRUE(check_gguf(one(0, {1ull << 62, 4, 0})).valid);
}

TEST(GgufGG4, EveryTypeOfTheTableIsValid) {
  for (const auto& t : tensorgate::ggml_types()) {
    const auto r = check_gguf(one(t.id, {t.block_size, 2}));
    ASSERT_TRUE(r.valid) << t.name << ": " << gguf_errors(r);
    EXPECT_EQ(r.summary.get<GgufSummary>()->bytes, 2u * t.type_size) << t.name;
  }
  EXPECT_EQ(tensorgate::ggml_types().size(), 35u);
}

TEST(GgufGG4, TypeSizesAsGgmlHasThem) {
  const auto size = [](std::uint32_t id) {
    const auto* t = tensorgate::ggml_type_info(id);
    return t ? std::to_string(t->block_size) + "/" + std::to_string(t->type_size) : std::string("-");
  };
  EXPECT_EQ(size(0), "1/4");
  EXPECT_EQ(size(2), "32/18");
  EXPECT_EQ(size(12), "256/144");
  EXPECT_EQ(size(15), "256/292");
  EXPECT_EQ(size(30), "1/2");
  EXPECT_EQ(size(34), "256/54");
  EXPECT_EQ(size(39), "32/17");
  EXPECT_EQ(size(40), "64/36");
  EXPECT_EQ(size(41), "128/18");
  EXPECT_EQ(size(42), "64/18");
  EXPECT_EQ(size(43), "-");
}

TEST(GgufGG4, RemovedAndUnknownTypes) {
  for (const std::uint32_t t : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 43u, 1000u, 0xffffffffu}) {
    const auto r = check_gguf(one(t, {256}));
    EXPECT_EQ(gguf_errors(r), "GG4.type") << t;
  }
  EXPECT_NE(tgtest::find_rule(check_gguf(one(31, {256})), "GG4.type")->message.find("Q4_0_4_4"), std::string::npos);
}

TEST(GgufGG4, FirstDimensionAWholeNumberOfBlocks) {
  EXPECT_EQ(gguf_errors(check_gguf(one(12, {255}))), "GG4.block-size");
  EXPECT_EQ(gguf_errors(check_gguf(one(2, {16, 2}))), "GG4.block-size");
  EXPECT_EQ(gguf_errors(check_gguf(one(2, {}))), "GG4.block-size");  // a scalar is one element
  EXPECT_TRUE(check_gguf(one(2, {64, 3})).valid);
  EXPECT_TRUE(check_gguf(one(2, {0, 3})).valid);
}

TEST(GgufGG4, ByteSizeOverflowingSixtyFourBits) {
  // F32 [2^62]: 2^62 elements are fine, 2^64 bytes are not (ggml's nb[1] wrapped to 0).
  EXPECT_EQ(gguf_errors(check_gguf(one(0, {1ull << 62}))), "GG4.byte-size");
  EXPECT_EQ(gguf_errors(check_gguf(one(28, {1ull << 61}))), "GG4.byte-size");
  EXPECT_EQ(gguf_errors(check_gguf(one(0, {1ull << 61, 2}))), "GG4.byte-size");
}

TEST(GgufGG4, EveryCutInsideTheTensorInfosIsGG4Truncated) {
  GgufBuilder b = base();
  b.tensor("a", 0, {8, 2}).tensor("b.weight", 2, {64}).no_padding();
  const std::string f = b.build();
  const std::size_t begin = 24 + 45, infos = 8 + 1 + 4 + 16 + 4 + 8 + 8 + 8 + 4 + 8 + 4 + 8;
  for (std::size_t n = begin + 16; n < begin + infos; ++n)  // from 85: 24 + 13 + 2 x 24
    EXPECT_EQ(gguf_errors(check_gguf(std::string_view(f).substr(0, n))), "GG4.truncated") << n;
}

TEST(GgufGG4, VersionOneDimsAreThirtyTwoBits) {
  GgufBuilder b(1);
  b.kv_str("general.architecture", "llama").tensor("w", 0, {8, 2});
  const auto r = check_gguf(b.build());
  ASSERT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ((*r.summary.get<GgufSummary>()->tensors)[0].shape[1], 2u);
  EXPECT_EQ(r.summary.get<GgufSummary>()->bytes, 64u);
}

}  // namespace
