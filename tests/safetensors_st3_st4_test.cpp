// ST3 (__metadata__) and ST4 (tensor entries).
#include <gtest/gtest.h>

#include "st_builder.hpp"
#include "tensorgate/safetensors/summary.hpp"

using tensorgate::SafetensorsSummary;

using namespace tgtest;

namespace {

std::string entry(std::string_view name, std::string_view body) {
  return "\"" + std::string(name) + "\":{" + std::string(body) + "}";
}
tensorgate::Report one(std::string_view body, std::size_t data) {
  return check(st_file("{" + entry("w", body) + "}", zeros(data)));
}

}  // namespace

TEST(ST3, MetadataMapOfStringsIsValid) {
  const auto r = check(st_file(R"({"__metadata__":{"format":"pt","b":""}})"));
  EXPECT_TRUE(r.valid) << ids(r);
  ASSERT_TRUE(r.summary.get<SafetensorsSummary>());
  ASSERT_EQ(r.summary.get<SafetensorsSummary>()->metadata_size(), 2u);
  EXPECT_EQ(r.summary.get<SafetensorsSummary>()->metadata(0), (std::pair<std::string_view, std::string_view>{"format", "pt"}));
}

TEST(ST3, NullMetadataIsAnErrorHere) {
  const auto r = check(st_file(R"({"__metadata__":null})"));
  EXPECT_EQ(error_ids(r), "ST3.not-object");
  EXPECT_TRUE(r.has("STW.reference-differs"));
}

TEST(ST3, MetadataOfOtherTypes) {
  EXPECT_EQ(error_ids(check(st_file(R"({"__metadata__":[]})"))), "ST3.not-object");
  EXPECT_EQ(error_ids(check(st_file(R"({"__metadata__":"x"})"))), "ST3.not-object");
  EXPECT_EQ(error_ids(check(st_file(R"({"__metadata__":1})"))), "ST3.not-object");
}

TEST(ST3, NonStringValues) {
  for (std::string v : {"1", "1.5", "true", "null", "[]", "{}", "[\"a\"]"}) {
    EXPECT_EQ(error_ids(check(st_file(R"({"__metadata__":{"k":)" + v + "}}"))), "ST3.value") << v;
  }
}

TEST(ST4, KnownDtypesAreCaseSensitive) {
  EXPECT_EQ(error_ids(one(R"("dtype":"f32","shape":[1],"data_offsets":[0,4])", 4)), "ST4.dtype");
  EXPECT_EQ(error_ids(one(R"("dtype":"F33","shape":[1],"data_offsets":[0,4])", 4)), "ST4.dtype");
  EXPECT_EQ(error_ids(one(R"("dtype":"","shape":[1],"data_offsets":[0,4])", 4)), "ST4.dtype");
}

TEST(ST4, EscapedDtypeNameIsTheSameName) {
  EXPECT_TRUE(one(R"("dtype":"F\u0033\u0032","shape":[1],"data_offsets":[0,4])", 4).valid);
}

TEST(ST4, DtypeAsObjectIsRejectedHere) {
  const auto r = one(R"("dtype":{"F32":null},"shape":[1],"data_offsets":[0,4])", 4);
  EXPECT_EQ(error_ids(r), "ST4.dtype");
  EXPECT_TRUE(r.has("STW.reference-differs"));
}

TEST(ST4, EveryDtypeAndItsSize) {
  for (const auto& d : tensorgate::all_dtypes()) {
    const std::uint64_t bytes = 8 * d.bits / 8;  // shape [8]
    const auto r = one("\"dtype\":\"" + std::string(d.name) + "\",\"shape\":[8],\"data_offsets\":[0," +
                           std::to_string(bytes) + "]",
                       bytes);
    EXPECT_TRUE(r.valid) << d.name << ": " << ids(r);
    const auto wrong = one("\"dtype\":\"" + std::string(d.name) + "\",\"shape\":[8],\"data_offsets\":[0," +
                               std::to_string(bytes + 1) + "]",
                           bytes + 1);
    EXPECT_EQ(error_ids(wrong), "ST4.size-mismatch") << d.name;
  }
}

TEST(ST4, EntryWrittenAsAnArray) {
  const auto r = check(st_file(R"({"w":["F32",[1],[0,4]]})", zeros(4)));
  EXPECT_EQ(error_ids(r), "ST4.entry");
  EXPECT_TRUE(r.has("STW.reference-differs"));
}

TEST(ST4, EntryOfOtherTypes) {
  EXPECT_EQ(error_ids(check(st_file(R"({"w":"F32"})"))), "ST4.entry");
  EXPECT_EQ(error_ids(check(st_file(R"({"w":null})"))), "ST4.entry");
}

TEST(ST4, MissingFields) {
  EXPECT_EQ(error_ids(one(R"("shape":[1],"data_offsets":[0,4])", 4)), "ST4.missing-field");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","data_offsets":[0,4])", 4)), "ST4.missing-field");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1])", 0)), "ST4.missing-field");
  EXPECT_EQ(error_ids(one("", 0)), "ST4.missing-field");
}

TEST(ST4, IntegersWithFractionOrExponentAreNotIntegers) {
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1.0],"data_offsets":[0,4])", 4)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1e0],"data_offsets":[0,4])", 4)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":[0,4.0])", 4)), "ST4.data-offsets");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":[0E0,4])", 4)), "ST4.data-offsets");
}

TEST(ST4, NegativeAndNonNumericDimensions) {
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[-1],"data_offsets":[0,4])", 4)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[-0],"data_offsets":[0,0])", 0)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":["1"],"data_offsets":[0,4])", 4)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[[1]],"data_offsets":[0,4])", 4)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":1,"data_offsets":[0,4])", 4)), "ST4.shape");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":null,"data_offsets":[0,4])", 4)), "ST4.shape");
}

TEST(ST4, DimensionsUpToTwoToThe64MinusOne) {
  EXPECT_TRUE(one(R"("dtype":"F32","shape":[18446744073709551615,0],"data_offsets":[0,0])", 0).valid);
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[18446744073709551616,0],"data_offsets":[0,0])", 0)),
            "ST4.shape");
}

TEST(ST4, DataOffsetsShape) {
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":[0,4,8])", 4)), "ST4.data-offsets");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":[4])", 4)), "ST4.data-offsets");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":[])", 4)), "ST4.data-offsets");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":[-1,3])", 4)), "ST4.data-offsets");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[1],"data_offsets":{"b":0})", 4)), "ST4.data-offsets");
}

TEST(ST4, BeginAfterEnd) {
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[0],"data_offsets":[4,0])", 4)), "ST4.data-offsets");
}

TEST(ST4, ScalarIsOneElement) {
  EXPECT_TRUE(one(R"("dtype":"F32","shape":[],"data_offsets":[0,4])", 4).valid);
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[],"data_offsets":[0,0])", 0)), "ST4.size-mismatch");
}

TEST(ST4, ZeroDimensionMakesTheProductZeroWhateverTheOthers) {
  const auto r = one(R"("dtype":"F32","shape":[9223372036854775808,9223372036854775808,0],"data_offsets":[0,0])", 0);
  EXPECT_TRUE(r.valid) << ids(r);
  EXPECT_TRUE(r.has("STW.reference-differs"));  // the reference's fold overflows first
  const auto early_zero = one(R"("dtype":"F32","shape":[0,9223372036854775808,9223372036854775808],"data_offsets":[0,0])", 0);
  EXPECT_TRUE(early_zero.valid);
  EXPECT_FALSE(early_zero.has("STW.reference-differs"));
}

TEST(ST4, ProductOverflow) {
  EXPECT_EQ(error_ids(one(R"("dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0])", 0)),
            "ST4.overflow");
  EXPECT_EQ(error_ids(one(R"("dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0])", 0)),
            "ST4.overflow");
}

TEST(ST4, SubByteDtypesNeedWholeBytes) {
  EXPECT_EQ(error_ids(one(R"("dtype":"F4","shape":[3],"data_offsets":[0,2])", 2)), "ST4.sub-byte");
  EXPECT_TRUE(one(R"("dtype":"F4","shape":[2,3],"data_offsets":[0,3])", 3).valid);
  EXPECT_EQ(error_ids(one(R"("dtype":"F6_E2M3","shape":[3],"data_offsets":[0,3])", 3)), "ST4.sub-byte");
  EXPECT_TRUE(one(R"("dtype":"F6_E3M2","shape":[4],"data_offsets":[0,3])", 3).valid);
  EXPECT_EQ(error_ids(one(R"("dtype":"F4","shape":[],"data_offsets":[0,1])", 1)), "ST4.sub-byte");
}

TEST(ST4, SizeMismatchNamesTheTensorAndItsOffset) {
  const auto r = check(st_file(R"({"abc":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", zeros(4)));
  EXPECT_EQ(error_ids(r), "ST4.size-mismatch");
  EXPECT_EQ(r.findings[0].tensor, "abc");
  EXPECT_EQ(r.findings[0].offset, 8u + 1u);  // the key's opening quote
}

TEST(ST4, UnknownFieldsAreAWarning) {
  const auto r = one(R"("dtype":"F32","shape":[1],"data_offsets":[0,4],"quant":"x")", 4);
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.has("STW.unknown-field"));
}

TEST(ST4, SeveralFindingsPerFile) {
  const auto r = check(st_file(
      R"({"a":{"dtype":"X","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1.5],"data_offsets":[4,8]},"c":{"dtype":"F32","shape":[1],"data_offsets":[8,9]}})",
      zeros(9)));
  EXPECT_EQ(error_ids(r), "ST4.dtype ST4.shape ST4.size-mismatch");
  EXPECT_EQ(r.findings[0].tensor, "a");
  EXPECT_EQ(r.findings[1].tensor, "b");
  EXPECT_EQ(r.findings[2].tensor, "c");
}

TEST(ST4, FindingsAreCappedButTheVerdictHolds) {
  std::string header = "{";
  for (int i = 0; i < 2000; ++i) {
    if (i) header += ',';
    header += "\"t" + std::to_string(i) + "\":{\"dtype\":\"X\",\"shape\":[1],\"data_offsets\":[" +
              std::to_string(4 * i) + "," + std::to_string(4 * i + 4) + "]}";
  }
  header += "}";
  const auto r = check(st_file(header, zeros(8000)));
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.findings.size(), tensorgate::Limits{}.max_findings);
  EXPECT_EQ(r.findings_dropped, 1000u);
}
