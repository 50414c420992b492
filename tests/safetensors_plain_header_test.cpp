// The plain-header fast path (core/src/safetensors/st2_plain_header.hpp) against the general
// parse: for every header here both routes give the same verdict, findings and table, and the
// fast path reads exactly the headers it should (the plain ones) and hands every other back.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "header_routes.hpp"

namespace {

using tensorgate::detail::HeaderRoute;

struct Case {
  const char* what;
  std::string header;
  bool plain;  // the fast path is expected to read it whole
};

const std::string kEntry = R"("a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]})";

std::vector<Case> cases() {
  return {
      // Plain: the fast path reads these.
      {"canonical, with metadata", R"({"__metadata__":{"format":"pt"},)" + kEntry + "}", true},
      {"no metadata", "{" + kEntry + "}", true},
      {"empty object", "{}", true},
      {"fields in another order", R"({"a":{"data_offsets":[0,24],"shape":[2,3],"dtype":"F32"}})", true},
      {"metadata last", "{" + kEntry + R"(,"__metadata__":{"k":"v","k2":""}})", true},
      {"scalar and zero dims", R"({"s":{"dtype":"U8","shape":[],"data_offsets":[0,1]},"z":{"dtype":"F16","shape":[0,7],"data_offsets":[1,1]}})", true},
      {"four dims (stored apart)", R"({"w":{"dtype":"BF16","shape":[2,1,3,4],"data_offsets":[0,48]}})", true},
      {"eighteen digits", R"({"e":{"dtype":"U8","shape":[0,999999999999999999],"data_offsets":[999999999999999999,999999999999999999]}})", true},
      {"duplicate names", "{" + kEntry + "," + kEntry + "}", true},
      {"space padding", "{" + kEntry + "}   ", true},
      {"newline padding", "{" + kEntry + "}\n", true},
      {"NUL padding", "{" + kEntry + std::string("}\0\0", 3), true},
      {"punctuation in names", R"({"a.b-c/d[0]:e f":{"dtype":"I8","shape":[1],"data_offsets":[0,1]}})", true},
      {"llama names and layers", R"({"model.layers.0.self_attn.q_proj.weight":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"model.layers.11.mlp.up_proj.weight":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", true},
      {"F4 in whole bytes", R"({"q":{"dtype":"F4","shape":[4],"data_offsets":[0,2]}})", true},
      // Not plain: the general parse reads these, and words their findings.
      {"whitespace inside", R"({ "a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})", false},
      {"escaped name", R"({"\u0061":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})", false},
      {"UTF-8 name", "{\"\xC3\xA9\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", false},
      {"invalid UTF-8 name", "{\"\xC3(\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", false},
      {"DEL in a name", "{\"a\x7f\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", false},
      {"raw control in a name", "{\"a\x01\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", false},
      {"unknown dtype", R"({"a":{"dtype":"F128","shape":[2],"data_offsets":[0,32]}})", false},
      {"nineteen digits", R"({"a":{"dtype":"U8","shape":[1000000000000000000],"data_offsets":[0,1000000000000000000]}})", false},
      {"past 2^64", R"({"a":{"dtype":"U8","shape":[18446744073709551616],"data_offsets":[0,1]}})", false},
      {"negative", R"({"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", false},
      {"fraction", R"({"a":{"dtype":"U8","shape":[1.0],"data_offsets":[0,1]}})", false},
      {"exponent", R"({"a":{"dtype":"U8","shape":[1e0],"data_offsets":[0,1]}})", false},
      {"leading zero", R"({"a":{"dtype":"U8","shape":[01],"data_offsets":[0,1]}})", false},
      {"missing field", R"({"a":{"dtype":"U8","shape":[1]}})", false},
      {"unknown field", R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":1}})", false},
      {"duplicate field", R"({"a":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}})", false},
      {"offsets reversed", R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[1,0]}})", false},
      {"three offsets", R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1,2]}})", false},
      {"size mismatch", R"({"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,23]}})", false},
      {"odd F4 count", R"({"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}})", false},
      {"product overflows before a zero", R"({"a":{"dtype":"U8","shape":[4294967296,4294967296,0],"data_offsets":[0,0]}})", false},
      {"bit count past 64 bits", R"({"a":{"dtype":"U64","shape":[576460752303423488],"data_offsets":[0,4611686018427387904]}})", false},
      {"sixty-five dims", R"({"a":{"dtype":"U8","shape":[)" + [] {
         std::string s = "1";
         for (int i = 1; i < 65; ++i) s += ",1";
         return s;
       }() + R"(],"data_offsets":[0,1]}})", false},
      {"empty metadata", "{\"__metadata__\":{}," + kEntry + "}", false},
      {"duplicate metadata key", "{\"__metadata__\":{\"k\":\"v\",\"k\":\"w\"}," + kEntry + "}", false},
      {"metadata number", "{\"__metadata__\":{\"k\":1}," + kEntry + "}", false},
      {"metadata null", "{\"__metadata__\":null," + kEntry + "}", false},
      {"two metadata maps", R"({"__metadata__":{"k":"v"},"__metadata__":{"k":"v"}})", false},
      {"entry as array", R"({"a":[1,2]})", false},
      {"dtype as object", R"({"a":{"dtype":{},"shape":[1],"data_offsets":[0,1]}})", false},
      {"trailing comma", "{" + kEntry + ",}", false},
      {"cut in the middle", R"({"a":{"dtype":"F32","shape":[2,)", false},
      {"not an object", "[]", false},
      {"empty header", "", false},
      {"byte-order mark", "\xEF\xBB\xBF{}", false},
      {"text after the object", "{" + kEntry + "}x", true},
  };
}

std::string case_named(std::string_view what) {
  for (const Case& c : cases())
    if (c.what == what) return c.header;
  ADD_FAILURE() << "no case " << what;
  return {};
}

TEST(PlainHeader, BothRoutesGiveTheSameAnswerAndTheFastPathTakesOnlyPlainHeaders) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.what);
    const auto fast = tgtest::parse_by_route(c.header, HeaderRoute::plain_first);
    const auto general = tgtest::parse_by_route(c.header, HeaderRoute::general_only);
    EXPECT_EQ(fast.dump, general.dump);
    EXPECT_EQ(fast.plain, c.plain);
    EXPECT_FALSE(general.plain);
  }
}

// The depth limit is the general parse's to apply: below what a plain header needs (root, entry,
// shape) the fast path stands aside, and the answer is the general one (ST2.depth at 2).
TEST(PlainHeader, ADepthLimitBelowThreeLeavesTheHeaderToTheGeneralParse) {
  for (const std::uint32_t depth : {1u, 2u, 3u, 4u}) {
    SCOPED_TRACE(depth);
    tensorgate::Limits limits;
    limits.max_json_depth = depth;
    const std::string header = "{" + kEntry + "}";
    const auto fast = tgtest::parse_by_route(header, HeaderRoute::plain_first, limits);
    const auto general = tgtest::parse_by_route(header, HeaderRoute::general_only, limits);
    EXPECT_EQ(fast.dump, general.dump);
    EXPECT_EQ(fast.plain, depth >= 3);
  }
  tensorgate::Limits shallow;
  shallow.max_json_depth = 2;
  EXPECT_NE(tgtest::parse_by_route("{" + kEntry + "}", HeaderRoute::plain_first, shallow).dump.find("ST2.depth"),
            std::string::npos);
}

// What a plain header's findings can be, found by the shared steps after the scan: a name
// given twice (the later entry flagged), and what follows the object. And the architecture,
// guessed during the scan.
TEST(PlainHeader, APlainHeaderStillReportsItsDuplicateNamesPaddingAndArchitecture) {
  const auto dup = tgtest::parse_by_route("{" + kEntry + "," + kEntry + "}", HeaderRoute::plain_first);
  ASSERT_TRUE(dup.plain);
  EXPECT_NE(dup.dump.find("finding ST2.duplicate-key @65 [a] duplicate tensor name"), std::string::npos) << dup.dump;
  const auto llama = tgtest::parse_by_route(case_named("llama names and layers"), HeaderRoute::plain_first);
  ASSERT_TRUE(llama.plain);
  EXPECT_NE(llama.dump.find("architecture llama layers 12\n"), std::string::npos) << llama.dump;
  const auto nul = tgtest::parse_by_route("{" + kEntry + std::string("}\0", 2), HeaderRoute::plain_first);
  ASSERT_TRUE(nul.plain);
  EXPECT_NE(nul.dump.find("finding ST2.trailing"), std::string::npos) << nul.dump;
}

// A header that is plain until its last entry costs the fast path's partial scan, and the
// answer is still the general parse's, whole (no record of the partial scan is left).
TEST(PlainHeader, AHeaderThatTurnsOutNotPlainIsParsedAgainFromTheStart) {
  std::string header = "{";
  for (int i = 0; i < 1000; ++i)
    header += "\"t" + std::to_string(i) + R"(":{"dtype":"U8","shape":[1],"data_offsets":[)" + std::to_string(i) +
              "," + std::to_string(i + 1) + "]},";
  header += R"("last":{"dtype":"U8","shape":[1],"data_offsets":[1000,1001],"extra":true}})";
  const auto fast = tgtest::parse_by_route(header, HeaderRoute::plain_first);
  const auto general = tgtest::parse_by_route(header, HeaderRoute::general_only);
  EXPECT_FALSE(fast.plain);
  EXPECT_EQ(fast.dump, general.dump);
  EXPECT_NE(fast.dump.find("STW.unknown-field"), std::string::npos);
}

}  // namespace
