// STC1-STC4: a valid file is canonical exactly when its bytes are the writer's.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "st_builder.hpp"
#include "tensorgate/safetensors/writer.hpp"

using namespace tgtest;

namespace {

const std::string kSeedHeader =
    R"({"__metadata__":{"format":"tinyllm"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";

std::string stc(const tensorgate::Report& r) {
  std::string out;
  for (const auto& f : r.findings) {
    const auto family = tensorgate::rule_info(f.rule).family;
    if (!family.starts_with("STC")) continue;
    if (!out.empty()) out += ' ';
    out += family;
  }
  return out;
}

}  // namespace

TEST(Canonical, SeedWorkedExampleIsCanonical) {
  const auto r = check(st_file(kSeedHeader, zeros(16)));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(r.canonical, true);
  EXPECT_EQ(stc(r), "");
}

TEST(Canonical, InvalidFilesHaveNoCanonicalFlag) {
  EXPECT_FALSE(check(st_file(kSeedHeader, zeros(15))).canonical.has_value());
}

TEST(Canonical, DataNotInCanonicalOrder) {
  // Canonical order is F32 before I8 (STC1): here the I8 data comes first.
  const auto r = check(st_file(
      R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[1,5]},"b":{"dtype":"I8","shape":[1],"data_offsets":[0,1]}})",
      zeros(5)));
  EXPECT_EQ(r.canonical, false);
  EXPECT_EQ(stc(r), "STC1");
}

TEST(Canonical, SameDtypeSortedByNameBytes) {
  const auto ok = check(st_file(
      R"({"B":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
      zeros(8)));
  EXPECT_EQ(ok.canonical, true) << ids(ok);
  const auto bad = check(st_file(
      R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"B":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
      zeros(8)));
  EXPECT_EQ(stc(bad), "STC1 STC2");
}

TEST(Canonical, HeaderKeyOrderDiffersFromDataOrder) {
  // Data laid out canonically, but the header lists the tensors in another order (STC2 only).
  const auto r = check(st_file(
      R"({"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
      zeros(8)));
  EXPECT_EQ(stc(r), "STC2");
}

TEST(Canonical, WhitespaceAndEntryKeyOrderAreHeaderText) {
  EXPECT_EQ(stc(check(st_file(R"({"w": {"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"w":{"shape":[1],"dtype":"F32","data_offsets":[0,4]}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":"y"}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"__metadata__":{"a":"b"}})", zeros(4)))),
            "STC2");
}

TEST(Canonical, Escapes) {
  // Raw UTF-8 and minimal escapes are canonical; \u escapes of printable or non-ASCII
  // characters, or upper-case hex, are not.
  EXPECT_EQ(check(st_file("{\"\xc3\xa9\\t\\u001f\\\"\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", zeros(4))).canonical,
            true);
  EXPECT_EQ(stc(check(st_file(R"({"\u00e9":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"\u0041":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"\u001F":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"\u0009":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)))), "STC2");
  EXPECT_EQ(stc(check(st_file(R"({"a\/b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4)))), "STC2");
}

TEST(Canonical, Metadata) {
  EXPECT_EQ(check(st_file(R"({"__metadata__":{"a":"1","b":"2"}})")).canonical, true);
  EXPECT_EQ(stc(check(st_file(R"({"__metadata__":{"b":"2","a":"1"}})"))), "STC3");
  EXPECT_EQ(stc(check(st_file(R"({"__metadata__":{}})"))), "STC3");
}

TEST(Canonical, Padding) {
  // 2 bytes of JSON: the writer pads 6 spaces. 14 is too many; none leaves N = 2.
  EXPECT_EQ(check(st_file_n(8, "{}      ")).canonical, true);
  EXPECT_EQ(stc(check(st_file_n(16, "{}              "))), "STC4");
  EXPECT_EQ(stc(check(st_file_n(2, "{}"))), "STC4");
  EXPECT_EQ(stc(check(st_file_n(8, "{}\t     "))), "STC4");
}

TEST(Canonical, LeadingWhitespaceIsHeaderText) {
  EXPECT_EQ(stc(check(st_file_n(8, " {}     "))), "STC2");
}

// STC2's offset is the first header byte that differs from the writer's text: the comparison
// runs a block at a time (stc_canonical.cpp), so a difference anywhere (the first bytes, inside
// or at the end of a block, past the first 64 KiB piece) must still be found at its byte.
TEST(Canonical, HeaderTextFindingPointsAtTheFirstDifferentByte) {
  std::vector<tensorgate::TensorSpec> specs;
  for (int i = 0; i < 2000; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "t%05d", i);
    specs.push_back({name, tensorgate::Dtype::U8, {1}, {}});
  }
  std::uint64_t data_length = 0;
  const auto canonical = tensorgate::write_safetensors_header(specs, {}, data_length);
  ASSERT_TRUE(canonical.ok()) << canonical.error;
  ASSERT_GT(canonical.bytes.size(), 100'000u);  // past the comparison's first 64 KiB piece
  const std::string data = zeros(static_cast<std::size_t>(data_length));
  EXPECT_EQ(check(canonical.bytes + data).canonical, true);

  for (const int k : {0, 1, 2, 3, 37, 1190, 1999}) {
    // Tensor k's keys in another order: the same content, valid, not the writer's text.
    char from[64], to[64];
    std::snprintf(from, sizeof from, R"("t%05d":{"dtype":"U8","shape":[1])", k);
    std::snprintf(to, sizeof to, R"("t%05d":{"shape":[1],"dtype":"U8")", k);
    std::string bytes = canonical.bytes;
    const std::size_t at = bytes.find(from);
    ASSERT_NE(at, std::string::npos) << k;
    bytes.replace(at, std::string_view(from).size(), to);
    std::size_t first = 0;
    while (bytes[first] == canonical.bytes[first]) ++first;

    const auto r = check(bytes + data);
    EXPECT_TRUE(r.valid) << k;
    EXPECT_EQ(stc(r), "STC2") << k;
    for (const auto& f : r.findings)
      if (f.rule == tensorgate::Rule::stc2_header_text) EXPECT_EQ(f.offset, first) << k;
  }
}
