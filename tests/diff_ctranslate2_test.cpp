// tensorgate diff of CTranslate2 model.bin files (tests/data/ctranslate2): variables are a side's
// tensors, read at the offsets the summary records; their dtypes are compared across formats by
// what they are (a CTranslate2 float32 beside a safetensors F32 is no dtype change).
#include <gtest/gtest.h>

#include <bit>

#include "diff_run.hpp"
#include "st_builder.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/validator.hpp"
#include "test_data.hpp"

namespace {

using namespace tgtest;

Model ct2(std::string bytes) { return file_model("model.bin", std::move(bytes)); }

// The data offset of a variable of the fixture.
std::uint64_t offset_of(const std::string& bytes, const std::string& name) {
  auto v = tensorgate::make_ctranslate2_validator();
  const tensorgate::Report r = tensorgate::validate_whole(*v, bytes);
  for (const auto& var : r.summary.get<tensorgate::CTranslate2Summary>()->variables)
    if (var.name == name) return var.offset;
  ADD_FAILURE() << name;
  return 0;
}

TEST(DiffCTranslate2, VariablesArePairedAndTheirValuesRead) {
  const std::string v6 = test_data("ctranslate2/whisper_v6.bin");
  const DiffRun same = diff_pair(ct2(v6), ct2(test_data("ctranslate2/whisper_v4.bin")), with_values(true));
  ASSERT_FALSE(same.report.invalid) << *same.report.invalid;
  EXPECT_EQ(same.changes(), "");
  EXPECT_EQ(same.report.unchanged.size(), 8u);
  EXPECT_EQ(same.report.old_side.files[0].format, "ctranslate2");
  EXPECT_EQ(same.report.old_side.parameters, 159u);
  EXPECT_EQ(same.report.bytes_read, 2 * 353u);  // every variable's data, both sides

  std::string tuned = v6;
  const std::uint64_t at = offset_of(v6, "encoder/conv1/bias");
  const float x = std::bit_cast<float>(std::uint32_t(static_cast<unsigned char>(tuned[at]) |
                                                     static_cast<unsigned char>(tuned[at + 1]) << 8 |
                                                     static_cast<unsigned char>(tuned[at + 2]) << 16 |
                                                     std::uint32_t(static_cast<unsigned char>(tuned[at + 3])) << 24));
  const auto bits = std::bit_cast<std::uint32_t>(x + 1.0f);
  for (int i = 0; i < 4; ++i) tuned[at + i] = static_cast<char>(bits >> (8 * i));
  const DiffRun r = diff_pair(ct2(v6), ct2(tuned), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "encoder/conv1/bias:values");
  EXPECT_EQ(r.change("encoder/conv1/bias")->values->changed, 1u);
}

TEST(DiffCTranslate2, DtypesAreComparedAcrossFormats) {
  const std::string v6 = test_data("ctranslate2/whisper_v6.bin");
  const std::uint64_t at = offset_of(v6, "encoder/conv1/bias");
  const std::string st = st_file(R"({"encoder/conv1/bias":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", v6.substr(at, 16));
  const DiffRun r = diff_pair(ct2(v6), file_model("model.safetensors", st), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  // Every other variable is removed; the one in both is unchanged, float32 being F32.
  EXPECT_EQ(r.report.unchanged, std::vector<std::string>{"encoder/conv1/bias"});
  EXPECT_EQ(r.change("encoder/conv1/bias"), nullptr);
}

}  // namespace
