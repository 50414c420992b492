// ST1 (length prefix) and ST2 (the header is one JSON object, UTF-8, no duplicate keys).
#include <gtest/gtest.h>

#include <algorithm>

#include "st_builder.hpp"
#include "tensorgate/safetensors/summary.hpp"

using namespace tgtest;

namespace {
const std::string kW = R"("w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]})";
std::string one_tensor(std::string_view header_text) { return st_file(header_text, zeros(4)); }
}  // namespace

TEST(ST1, FewerThanEightBytes) {
  for (std::size_t n : {0u, 1u, 7u}) {
    const auto r = check(std::string(n, '\0'));
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(error_ids(r), "ST1.too-short") << n;
  }
}

TEST(ST1, HeaderLengthAboveLimit) {
  EXPECT_EQ(error_ids(check(st_file_n(100'000'001, "{}"))), "ST1.header-too-large");
}

TEST(ST1, HeaderLengthsThatWouldWrapAreTooLarge) {
  EXPECT_EQ(error_ids(check(st_file_n(UINT64_MAX, "{}"))), "ST1.header-too-large");
  EXPECT_EQ(error_ids(check(st_file_n(UINT64_MAX - 7, "{}"))), "ST1.header-too-large");
}

TEST(ST1, ExactlyOneHundredMillionIsAllowed) {
  std::string header = "{}";
  header.append(100'000'000 - header.size(), ' ');
  const auto r = check(st_file(header));
  EXPECT_TRUE(r.valid) << ids(r);
  EXPECT_FALSE(r.has("ST1"));
  EXPECT_TRUE(r.has("STW.large-header"));
}

TEST(ST1, FileEndsInsideTheHeader) {
  const auto r = check(st_file_n(64, "{}"));
  EXPECT_EQ(error_ids(r), "ST1.truncated-header");
  EXPECT_EQ(r.findings[0].offset, 0u);
}

TEST(ST2, EmptyHeaderIsNotJson) { EXPECT_EQ(error_ids(check(st_file_n(0, ""))), "ST2.syntax"); }

TEST(ST2, SyntaxErrorsCarryTheirPosition) {
  const auto r = check(st_file(R"({"w":{"dtype":"F32",}})"));
  EXPECT_EQ(error_ids(r), "ST2.syntax");
  ASSERT_TRUE(r.findings[0].offset);
  EXPECT_EQ(*r.findings[0].offset, 8u + 20u);
}

TEST(ST2, CommentsAndTrailingCommasAreNotJson) {
  EXPECT_EQ(error_ids(check(one_tensor("{/*c*/" + kW + "}"))), "ST2.syntax");
  EXPECT_EQ(error_ids(check(one_tensor("{" + kW + ",}"))), "ST2.syntax");
}

TEST(ST2, NotAnObject) {
  EXPECT_EQ(error_ids(check(st_file("[]"))), "ST2.not-object");
  EXPECT_EQ(error_ids(check(st_file("\"w\""))), "ST2.not-object");
  EXPECT_EQ(error_ids(check(st_file("null"))), "ST2.not-object");
}

TEST(ST2, ByteOrderMark) {
  EXPECT_EQ(error_ids(check(one_tensor("\xEF\xBB\xBF{" + kW + "}"))), "ST2.bom");
}

TEST(ST2, LeadingWhitespaceIsValid) {
  const auto r = check(one_tensor(" \t\r\n{" + kW + "}"));
  EXPECT_TRUE(r.valid) << ids(r);
  EXPECT_EQ(r.canonical, false);
}

TEST(ST2, InvalidUtf8InAString) {
  EXPECT_EQ(error_ids(check(one_tensor("{\"w\xff\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"))),
            "ST2.utf8");
  // overlong encoding of '/', and a lone continuation byte
  EXPECT_EQ(error_ids(check(one_tensor("{\"w\xc0\xaf\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"))),
            "ST2.utf8");
  EXPECT_EQ(error_ids(check(one_tensor("{\"\x80\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"))),
            "ST2.utf8");
  EXPECT_EQ(error_ids(check(one_tensor("{\"__metadata__\":{\"k\":\"\xc3\x28\"}," + kW + "}"))), "ST2.utf8");
}

TEST(ST2, InvalidUtf8InThePaddingIsAnError) {
  const auto r = check(st_file_n(kW.size() + 3, "{" + kW + "}\xff", zeros(4)));
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(r.has("ST2")) << ids(r);
}

TEST(ST2, NulPaddingIsAnError) {
  std::string header = "{" + kW + "}";
  header.append((8 - header.size() % 8) % 8 + 8, '\0');
  const auto r = check(st_file(header, zeros(4), false));
  EXPECT_EQ(error_ids(r), "ST2.trailing");
}

TEST(ST2, GarbageAfterTheObject) {
  EXPECT_EQ(error_ids(check(one_tensor("{" + kW + "} x"))), "ST2.trailing");
  EXPECT_EQ(error_ids(check(one_tensor("{" + kW + "}{}"))), "ST2.trailing");
}

TEST(ST2, UnpairedSurrogates) {
  EXPECT_EQ(error_ids(check(one_tensor(R"({"\ud800":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})"))),
            "ST2.surrogate");
  EXPECT_EQ(error_ids(check(one_tensor(R"({"\udc00x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})"))),
            "ST2.surrogate");
}

TEST(ST2, PairedSurrogatesAreValid) {
  const auto r = check(one_tensor(R"({"\ud83d\ude00":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})"));
  EXPECT_TRUE(r.valid) << ids(r);
  ASSERT_TRUE(r.summary.get<tensorgate::SafetensorsSummary>());
  EXPECT_EQ((*r.summary.get<tensorgate::SafetensorsSummary>()->tensors)[0].name, "\xF0\x9F\x98\x80");
}

TEST(ST2, DuplicateTensorNamesAfterUnescaping) {
  const auto r = check(st_file(
      R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"\u0077":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
      zeros(8)));
  EXPECT_EQ(error_ids(r), "ST2.duplicate-key");
  EXPECT_TRUE(r.has("STW.reference-differs"));
  const auto dup = std::find_if(r.findings.begin(), r.findings.end(),
                                [](const auto& f) { return f.rule == tensorgate::Rule::st2_duplicate_key; });
  EXPECT_EQ(dup->tensor, "w");
}

// Every later entry of a repeated name is reported, in header order, at its own key.
TEST(ST2, EveryLaterDuplicateAtItsKey) {
  const std::string e = R"({"dtype":"U8","shape":[1],"data_offsets":[)";
  const std::string header = R"({"a":)" + e + R"(0,1]},"b":)" + e + R"(1,2]},"a":)" + e + R"(2,3]},"c":)" + e +
                             R"(3,4]},"a":)" + e + R"(4,5]}})";
  const auto r = check(st_file(header, zeros(5)));
  std::vector<std::uint64_t> offsets;
  for (const auto& f : r.findings) {
    if (f.rule != tensorgate::Rule::st2_duplicate_key) continue;
    EXPECT_EQ(f.tensor, "a");
    offsets.push_back(f.offset.value_or(0));
  }
  const std::size_t second = header.find(R"("a")", 2), third = header.find(R"("a")", second + 1);
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{8 + second, 8 + third}));
}

// Enough names for every radix pass to matter; only the one repeat is reported.
TEST(ST2, OneDuplicateAmongManyNames) {
  std::string header = "{";
  for (int i = 0; i < 20000; ++i)
    header += "\"t" + std::to_string(i) + R"(":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},)";
  header += R"("t12345":{"dtype":"U8","shape":[0],"data_offsets":[0,0]}})";
  const auto r = check(st_file(header, ""));
  EXPECT_EQ(std::count_if(r.findings.begin(), r.findings.end(),
                          [](const auto& f) { return f.rule == tensorgate::Rule::st2_duplicate_key; }),
            1);
  EXPECT_EQ(error_ids(r), "ST2.duplicate-key");
}

// A duplicate before a syntax error is still reported.
TEST(ST2, DuplicateBeforeBrokenJson) {
  const auto r = check(one_tensor(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"w":{"dtype":)"));
  EXPECT_TRUE(r.has("ST2.duplicate-key"));
  EXPECT_TRUE(r.has("ST2.syntax"));
}

TEST(ST2, DuplicateMetadataKeysAndDuplicateMetadata) {
  auto r = check(one_tensor(R"({"__metadata__":{"a":"1","\u0061":"2"},)" + kW + "}"));
  EXPECT_EQ(error_ids(r), "ST2.duplicate-key");
  EXPECT_TRUE(r.has("STW.reference-differs"));
  r = check(one_tensor(R"({"__metadata__":{"a":"1"},"__metadata__":{"b":"2"},)" + kW + "}"));
  EXPECT_EQ(error_ids(r), "ST2.duplicate-key");
  EXPECT_TRUE(r.has("STW.reference-differs"));
}

TEST(ST2, DuplicateFieldsInsideAnEntry) {
  EXPECT_EQ(error_ids(check(one_tensor(
                R"({"w":{"dtype":"F32","dtype":"F32","shape":[1],"data_offsets":[0,4]}})"))),
            "ST2.duplicate-key");
}

TEST(ST2, DuplicateKeysAtAnyDepth) {
  const auto r = check(one_tensor(
      R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":[{"k":1,"k":2}]}})"));
  EXPECT_EQ(error_ids(r), "ST2.duplicate-key");
}

TEST(ST2, NestingDeeperThanTheReferenceAccepts) {
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  const auto r = check(one_tensor(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":)" + deep + "}}"));
  EXPECT_EQ(error_ids(r), "ST2.depth");
}

// The reference reader parses 127 levels (root object = level 1) and refuses 128: so do we.
TEST(ST2, DepthLimitIsTheReferenceReadersExactly) {
  const auto nested = [](int levels) {  // root, entry, then arrays: `levels` in all
    const std::string deep = std::string(levels - 2, '[') + std::string(levels - 2, ']');
    return check(one_tensor(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":)" + deep + "}}"));
  };
  EXPECT_TRUE(nested(127).valid);
  EXPECT_EQ(error_ids(nested(128)), "ST2.depth");
}

TEST(ST2, DeepButAcceptableNestingInAnUnknownFieldIsValid) {
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  const auto r = check(one_tensor(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":)" + deep + "}}"));
  EXPECT_TRUE(r.valid) << ids(r);
  EXPECT_TRUE(r.has("STW.unknown-field"));
}

TEST(ST2, MillionsOfOpenBracketsDoNotCrash) {
  const auto r = check(st_file(std::string(1'000'000, '[')));
  EXPECT_EQ(error_ids(r), "ST2.not-object ST2.depth");
}
