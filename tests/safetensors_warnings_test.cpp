// STW: warnings on valid files, and the info line on the oldest reference version.
#include <gtest/gtest.h>

#include "st_builder.hpp"
#include "tensorgate/safetensors/summary.hpp"

using tensorgate::SafetensorsSummary;

using namespace tgtest;

namespace {

std::string with_dtype(std::string_view dtype, std::uint64_t bytes, std::uint64_t count = 8) {
  return st_file("{\"w\":{\"dtype\":\"" + std::string(dtype) + "\",\"shape\":[" + std::to_string(count) +
                     "],\"data_offsets\":[0," + std::to_string(bytes) + "]}}",
                 zeros(bytes));
}

std::string version_message(const tensorgate::Report& r) {
  for (const auto& f : r.findings)
    if (f.rule == tensorgate::Rule::stw_reference_version) return f.message;
  return "";
}

}  // namespace

TEST(STW, ControlCharacterInATensorName) {
  const auto r = check(st_file(R"({"a\u0000b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)));
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.has("STW.name-control"));
  EXPECT_EQ(r.findings[0].tensor, std::string("a\0b", 3));
}

TEST(STW, LargeHeader) {
  std::string header = "{}";
  header.append(25'000'008 - header.size(), ' ');
  const auto r = check(st_file(header));
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.has("STW.large-header"));
  std::string small = "{}";
  small.append(25'000'000 - small.size(), ' ');
  EXPECT_FALSE(check(st_file(small)).has("STW.large-header"));
}

TEST(STW, EmptyMetadata) {
  const auto r = check(st_file(R"({"__metadata__":{}})"));
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.has("STW.empty-metadata"));
  EXPECT_TRUE(r.has("STC3"));
}

TEST(STW, PaddingOtherThanSpaces) {
  const auto r = check(st_file_n(8, "{}\n\t\r   "));
  EXPECT_TRUE(r.valid) << ids(r);
  EXPECT_TRUE(r.has("STW.padding"));
  EXPECT_TRUE(r.has("STC4"));
}

TEST(STW, OldestReferenceVersionFollowsTheDtypes) {
  EXPECT_EQ(version_message(check(with_dtype("F32", 32))),
            "the reference reader loads this file from version 0.3.0");
  EXPECT_EQ(version_message(check(with_dtype("F8_E4M3", 8))),
            "the reference reader loads this file from version 0.4.1");
  EXPECT_EQ(version_message(check(with_dtype("F4", 4))),
            "the reference reader loads this file from version 0.6.0");
  EXPECT_EQ(version_message(check(with_dtype("F8_E8M0", 8))),
            "the reference reader loads this file from version 0.6.0");
  EXPECT_EQ(version_message(check(with_dtype("C64", 64))),
            "the reference reader loads this file from version 0.7.0");
  EXPECT_EQ(version_message(check(with_dtype("F8_E5M2FNUZ", 8))),
            "the reference reader loads this file from version 0.8.0");
  const auto r = check(with_dtype("F6_E2M3", 6));
  ASSERT_TRUE(r.summary.get<SafetensorsSummary>());
  EXPECT_EQ(r.summary.get<SafetensorsSummary>()->min_reference_version, (tensorgate::Version{0, 6, 0}));
}

TEST(STW, NoReferenceVersionLoadsAZeroProductWithOverflowingPrefix) {
  const auto r = check(st_file(
      R"({"w":{"dtype":"F32","shape":[9223372036854775808,4,0],"data_offsets":[0,0]}})"));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(version_message(r), "no version of the reference reader loads this file");
  EXPECT_FALSE(r.summary.get<SafetensorsSummary>()->min_reference_version);
}

TEST(STW, OutOfRangeNumberInAnUnknownField) {
  const auto r = check(st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1e999}})", zeros(4)));
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.has("STW.reference-differs"));
  EXPECT_EQ(version_message(r), "no version of the reference reader loads this file");
}

TEST(STW, InvalidFilesGetNoVersionLine) {
  EXPECT_EQ(version_message(check(with_dtype("F33", 8))), "");
}
