// tensorgate diff of TFLite models: a side's tensors are its constant tensors (those with a
// buffer of data), read for --values where the summary says their buffer starts, inline in the
// flatbuffer or past it (a model over 2 GB's layout).
#include <gtest/gtest.h>

#include <bit>

#include "diff_run.hpp"
#include "st_builder.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/validator.hpp"
#include "test_data.hpp"

namespace {

using namespace tgtest;

Model tflite(const std::string& name) { return file_model(name, test_data("tflite/" + name)); }

TEST(DiffTflite, ConstantTensorsInlineOrPastTheFlatbufferAreTheSame) {
  const DiffRun r = diff_pair(tflite("model.tflite"), tflite("external.tflite"), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "");
  EXPECT_EQ(r.report.unchanged.size(), 3u);  // the weights, bias and addend: activations have no data
  EXPECT_EQ(r.report.old_side.files[0].format, "tflite");
  EXPECT_EQ(r.report.bytes_read, 2 * (12u + 12 + 12));
}

TEST(DiffTflite, AChangedWeightIsAChangeOfValues) {
  std::string bytes = test_data("tflite/model.tflite");
  const tensorgate::Report checked = tensorgate::validate_whole(*tensorgate::make_tflite_validator(), bytes);
  const auto* s = checked.summary.get<tensorgate::TfliteSummary>();
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->tensors[1].data_offset);
  bytes[*s->tensors[1].data_offset + 5] ^= 0x10;
  const DiffRun r = diff_pair(tflite("model.tflite"), file_model("tuned.tflite", bytes), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "sequential/dense/MatMul:values");
  EXPECT_EQ(r.change("sequential/dense/MatMul")->values->changed, 1u);
}

TEST(DiffTflite, Float32IsF32BesideSafetensors) {
  std::string bias;
  for (const float x : {0.5f, -0.5f, 0.25f}) {
    const auto u = std::bit_cast<std::uint32_t>(x);
    for (int i = 0; i < 4; ++i) bias += static_cast<char>((u >> (8 * i)) & 0xff);
  }
  const std::string st =
      st_file(R"({"sequential/dense/BiasAdd/ReadVariableOp":{"dtype":"F32","shape":[3],"data_offsets":[0,12]}})", bias);
  const DiffRun r = diff_pair(tflite("model.tflite"), file_model("model.safetensors", st), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "sequential/add/y:removed sequential/dense/MatMul:removed");
  EXPECT_EQ(r.report.unchanged, std::vector<std::string>{"sequential/dense/BiasAdd/ReadVariableOp"});
}

}  // namespace
