// ST5: sorted by (begin, end), the tensors tile the data buffer exactly.
#include <gtest/gtest.h>

#include "st_builder.hpp"

using namespace tgtest;

namespace {

std::string t(std::string_view name, std::string_view dtype, std::string_view shape, std::uint64_t b,
              std::uint64_t e) {
  return "\"" + std::string(name) + "\":{\"dtype\":\"" + std::string(dtype) + "\",\"shape\":" +
         std::string(shape) + ",\"data_offsets\":[" + std::to_string(b) + "," + std::to_string(e) + "]}";
}

}  // namespace

TEST(ST5, TilesInAnyHeaderOrder) {
  const auto r = check(st_file("{" + t("b", "F32", "[1]", 4, 8) + "," + t("a", "F32", "[1]", 0, 4) + "}", zeros(8)));
  EXPECT_TRUE(r.valid) << ids(r);
}

TEST(ST5, FirstTensorMustBeginAtZero) {
  const auto r = check(st_file("{" + t("a", "F32", "[1]", 4, 8) + "}", zeros(8)));
  EXPECT_EQ(error_ids(r), "ST5.gap");
  EXPECT_EQ(r.findings[0].tensor, "a");
}

TEST(ST5, GapBetweenTensors) {
  const auto r = check(st_file("{" + t("a", "F32", "[1]", 0, 4) + "," + t("b", "F32", "[1]", 8, 12) + "}", zeros(12)));
  EXPECT_EQ(error_ids(r), "ST5.gap");
  EXPECT_EQ(r.findings[0].tensor, "b");
}

TEST(ST5, Overlap) {
  const auto r = check(st_file("{" + t("a", "F32", "[2]", 0, 8) + "," + t("b", "F32", "[1]", 4, 8) + "}", zeros(8)));
  EXPECT_EQ(error_ids(r), "ST5.overlap");
}

TEST(ST5, TwoTensorsAtTheSameOffsets) {
  const auto r = check(st_file("{" + t("a", "F32", "[1]", 0, 4) + "," + t("b", "F32", "[1]", 0, 4) + "}", zeros(4)));
  EXPECT_EQ(error_ids(r), "ST5.overlap");
}

TEST(ST5, TrailingBytes) {
  const auto r = check(st_file("{" + t("a", "F32", "[1]", 0, 4) + "}", zeros(5)));
  EXPECT_EQ(error_ids(r), "ST5.trailing-bytes");
}

TEST(ST5, TruncatedData) {
  const auto r = check(st_file("{" + t("a", "F32", "[2]", 0, 8) + "}", zeros(5)));
  EXPECT_EQ(error_ids(r), "ST5.truncated");
}

TEST(ST5, NoTensorsMeansNoData) {
  EXPECT_TRUE(check(st_file("{}")).valid);
  EXPECT_EQ(error_ids(check(st_file("{}", zeros(1)))), "ST5.trailing-bytes");
  EXPECT_EQ(error_ids(check(st_file(R"({"__metadata__":{"a":"b"}})", zeros(3)))), "ST5.trailing-bytes");
}

TEST(ST5, ZeroSizeTensorsTileLikeAnyOther) {
  EXPECT_TRUE(check(st_file("{" + t("a", "F32", "[1]", 0, 4) + "," + t("z", "F32", "[0]", 4, 4) + "}", zeros(4))).valid);
  EXPECT_TRUE(check(st_file("{" + t("z", "F32", "[0]", 0, 0) + "," + t("a", "F32", "[1]", 0, 4) + "}", zeros(4))).valid);
  EXPECT_TRUE(check(st_file("{" + t("z", "F32", "[0]", 0, 0) + "}")).valid);
}

TEST(ST5, ZeroSizeTensorAtAGapOrPastTheEnd) {
  EXPECT_EQ(error_ids(check(st_file("{" + t("a", "F32", "[1]", 0, 4) + "," + t("z", "F32", "[0]", 8, 8) + "}", zeros(4)))),
            "ST5.gap ST5.truncated");
  EXPECT_EQ(error_ids(check(st_file("{" + t("z", "F32", "[0]", 4, 4) + "}"))), "ST5.gap ST5.truncated");
}

TEST(ST5, TruncationIsFoundWithoutTheTotalSize) {
  const std::string file = st_file("{" + t("a", "F32", "[4]", 0, 16) + "}", zeros(4));
  auto v = tensorgate::make_safetensors_validator();
  EXPECT_EQ(v->feed(file), tensorgate::Progress::need_more);
  EXPECT_EQ(error_ids(v->finish()), "ST5.truncated");
}

TEST(ST5, TrailingBytesEndTheVerdictEarly) {
  const std::string file = st_file("{" + t("a", "F32", "[1]", 0, 4) + "}", zeros(4));
  auto v = tensorgate::make_safetensors_validator();
  EXPECT_EQ(v->feed(file), tensorgate::Progress::need_more);
  EXPECT_EQ(v->feed(std::string_view("x")), tensorgate::Progress::invalid);
  EXPECT_EQ(error_ids(v->snapshot()), "ST5.trailing-bytes");
}

TEST(ST5, HeaderErrorsEndTheVerdictBeforeTheData) {
  const std::string file = st_file("{" + t("a", "F32", "[1]", 4, 8) + "}", zeros(8));
  auto v = tensorgate::make_safetensors_validator();
  const std::size_t header_end = file.size() - 8;
  EXPECT_EQ(v->feed(std::string_view(file).substr(0, header_end)), tensorgate::Progress::invalid);
  EXPECT_EQ(v->bytes_wanted(), 0u);
}

TEST(ST5, SizeHintFindsTruncationAsSoonAsTheHeaderIsParsed) {
  const std::string file = st_file("{" + t("a", "F32", "[4]", 0, 16) + "}", zeros(4));
  auto v = tensorgate::make_safetensors_validator();
  v->set_total_size(file.size());  // e.g. a Content-Length: 4 data bytes where 16 are needed
  EXPECT_EQ(v->feed(std::string_view(file).substr(0, file.size() - 4)), tensorgate::Progress::invalid);
}
