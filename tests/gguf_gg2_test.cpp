// GG2: key-value pairs. Keys, the 13 value types, strings, bools and arrays (nesting, counts).
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;
using tensorgate::Progress;

GgufBuilder base(std::uint32_t version = 3) {
  GgufBuilder b(version);
  b.kv_str("general.architecture", "llama");
  return b;
}

TEST(GgufGG2, EveryValueTypeIsValid) {
  GgufBuilder b = base();
  b.kv_u8("t.u8", 1).kv_raw("t.i8", kGgufI8, "\xff").kv_raw("t.u16", kGgufU16, b.enc().u16(7).bytes());
  b.kv_raw("t.i16", kGgufI16, b.enc().u16(0xffff).bytes()).kv_u32("t.u32", 3).kv_i32("t.i32", -3);
  b.kv_f32("t.f32", 1.5f).kv_bool("t.bool", 1).kv_str("t.str", "x").kv_u32s("t.arr", {1, 2});
  b.kv_u64("t.u64", 1).kv_raw("t.i64", kGgufI64, b.enc().u64(~0ull).bytes());
  b.kv_raw("t.f64", kGgufF64, b.enc().u64(0x3ff0000000000000ull).bytes());
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "");
  EXPECT_EQ(r.summary.get<tensorgate::GgufSummary>()->kv_count, 14u);
}

TEST(GgufGG2, EmptyKey) {
  const auto r = check_gguf(base().kv_u8("", 1).build());
  EXPECT_EQ(gguf_errors(r), "GG2.key-empty");
}

TEST(GgufGG2, DuplicateKeyAtTheSecondPair) {
  GgufBuilder b = base();
  b.kv_u32("a.b", 1).kv_u32("a.b", 2);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG2.duplicate-key");
  // header 24, general.architecture 8+20+4+8+5, the first a.b 8+3+4+4
  EXPECT_EQ(tgtest::find_rule(r, "GG2.duplicate-key")->offset, 24u + 45u + 19u);
}

TEST(GgufGG2, KeysCompareByteForByte) {
  EXPECT_TRUE(check_gguf(base().kv_u8("a", 1).kv_u8("A", 1).kv_u8("a ", 1).build()).valid);
}

TEST(GgufGG2, ManyKeysStayLinear) {
  GgufBuilder b = base();
  for (int i = 0; i < 20000; ++i) b.kv_u8("k." + std::to_string(i), 1);
  b.kv_u8("k.19999", 1);
  EXPECT_EQ(gguf_errors(tensorgate::validate_gguf(b.build())), "GG2.duplicate-key");
}

TEST(GgufGG2, KeyInvalidUtf8) {
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_u8("bad\xff", 1).build())), "GG2.key-utf8");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_u8("\xc0\xaf", 1).build())), "GG2.key-utf8");  // overlong
}

TEST(GgufGG2, UnknownValueTypes) {
  for (const std::uint32_t t : {13u, 255u, 0xffffffffu}) {
    const auto r = check_gguf(base().kv_raw("x", t, "\0\0\0\0").build());
    EXPECT_EQ(gguf_errors(r), "GG2.value-type") << t;
  }
}

TEST(GgufGG2, UnknownArrayElementType) {
  const auto r = check_gguf(base().kv_array("x", 13, 1, "\0").build());
  EXPECT_EQ(gguf_errors(r), "GG2.value-type");
}

TEST(GgufGG2, BoolIsZeroOrOne) {
  EXPECT_TRUE(check_gguf(base().kv_bool("b", 0).kv_bool("c", 1).build()).valid);
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_bool("b", 2).build())), "GG2.bool");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_array("b", kGgufBool, 4, std::string("\1\0\xff\1", 4)).build())),
            "GG2.bool");
}

TEST(GgufGG2, StringLongerThanGgmlAllows) {
  // 2^30 + 1 bytes: an error whatever the file holds, without waiting for the bytes.
  GgufBuilder b = base();
  b.kv_raw("s", kGgufString, b.enc().len((1ull << 30) + 1).raw("abc").bytes());
  const std::string f = b.build();
  auto v = tensorgate::make_gguf_validator();
  EXPECT_EQ(v->feed(f), Progress::invalid);
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG2.string-length");
}

TEST(GgufGG2, StringOfOneGibInASmallFileIsTruncated) {
  GgufBuilder b = base();
  b.kv_raw("s", kGgufString, b.enc().len(1ull << 30).raw("abc").bytes());
  const std::string f = b.build();
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(f.size());
  EXPECT_EQ(v->feed(std::string_view(f).substr(0, 24 + 45 + 8 + 1 + 4 + 8)), Progress::invalid);  // up to the length
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG2.truncated");
}

TEST(GgufGG2, StringRunningPastTheEnd) {
  std::string f = base().kv_str("general.name", "a long enough name").no_padding().build();
  f.resize(f.size() - 5);
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG2.truncated");
}

TEST(GgufGG2, EveryCutInsideThePairsIsGG2Truncated) {
  GgufBuilder b = base();
  b.kv_str("general.name", "n").kv_u32s("x.arr", {1, 2, 3}).kv_strings("x.strs", {"ab", "c"}).no_padding();
  const std::string f = b.build();  // no tensors, no padding: the pairs end the file
  // Four pairs need at least 24 + 4 x 13 = 76 bytes: shorter files refute the count.
  for (std::size_t n = 70; n < 76; ++n)
    EXPECT_EQ(gguf_errors(check_gguf(std::string_view(f).substr(0, n))), "GG1.kv-count") << n;
  for (std::size_t n = 76; n < f.size(); ++n)
    EXPECT_EQ(gguf_errors(check_gguf(std::string_view(f).substr(0, n))), "GG2.truncated") << n;
  EXPECT_TRUE(check_gguf(f).valid);
}

TEST(GgufGG2, ArrayLongerThanGgmlAllows) {
  GgufBuilder b = base();
  b.kv_array("a", kGgufU8, (1ull << 30) + 1, "");
  EXPECT_EQ(gguf_errors(check_gguf(b.build())), "GG2.array-length");
}

TEST(GgufGG2, ArrayOfTwoToTheThirtyInASmallFileIsTruncated) {
  GgufBuilder b = base();
  b.kv_array("a", kGgufString, 1ull << 30, "");
  EXPECT_EQ(gguf_errors(check_gguf(b.build())), "GG2.truncated");
}

std::string nested(GgufBuilder& b, int depth) {
  // `depth` arrays, each holding one array, the innermost one u8 {7}.
  std::string v = b.enc().u32(kGgufU8).len(1).u8(7).bytes();
  for (int d = 1; d < depth; ++d) v = b.enc().u32(kGgufArray).len(1).raw(v).bytes();
  return v;
}

TEST(GgufGG2, NestedArraysAreValidButWarned) {
  GgufBuilder b = base();
  b.kv_raw("n", kGgufArray, nested(b, 2));
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.nested-array");
}

TEST(GgufGG2, NestingOfEightIsTheLimit) {
  GgufBuilder b = base();
  b.kv_raw("n", kGgufArray, nested(b, 8));
  EXPECT_TRUE(check_gguf(b.build()).valid);
  GgufBuilder c = base();
  c.kv_raw("n", kGgufArray, nested(c, 9));
  EXPECT_EQ(gguf_errors(check_gguf(c.build())), "GG2.array-depth");
}

TEST(GgufGG2, DeepNestingIsNotRecursion) {
  // A million nested array headers: refused at depth 9, in constant stack.
  GgufBuilder b = base();
  std::string v;
  for (int d = 0; d < 1000000; ++d) v += b.enc().u32(kGgufArray).len(1).bytes();
  b.kv_raw("n", kGgufArray, v);
  EXPECT_EQ(gguf_errors(tensorgate::validate_gguf(b.build())), "GG2.array-depth");
}

TEST(GgufGG2, NestedArraysOfStringsAndEmptyArrays) {
  GgufBuilder b = base();
  const std::string inner1 = b.enc().u32(kGgufString).len(2).str("a").str("bc").bytes();
  const std::string inner2 = b.enc().u32(kGgufU16).len(0).bytes();
  b.kv_array("n", kGgufArray, 2, inner1 + inner2);
  b.kv_array("e", kGgufString, 0, "");
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
}

TEST(GgufGG2, InvalidUtf8InAStringValueIsAWarning) {
  const auto r = check_gguf(base().kv_str("general.name", "caf\xc3").build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.string-utf8");
}

TEST(GgufGG2, InvalidUtf8InArrayElementsIsOneWarning) {
  const auto r = check_gguf(base().kv_strings("x", {"ok", "\xed\xa0\x80", "\xff"}).build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.string-utf8");
}

TEST(GgufGG2, VersionOneLengthsAreThirtyTwoBits) {
  GgufBuilder b = base(1);
  b.kv_strings("x", {"a", "bc"}).kv_u32s("y", {1, 2});
  const std::string f = b.build();
  const auto r = check_gguf(f);
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  // general.architecture's key length is a u32 right after the 16-byte header.
  EXPECT_EQ(f.substr(16, 4), std::string("\x14\0\0\0", 4));
}

}  // namespace
