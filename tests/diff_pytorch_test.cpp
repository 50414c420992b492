// tensorgate diff of PyTorch checkpoints: a torch.save archive (data.pkl's state dict) and the
// legacy torch.save stream are sides like safetensors files, from the headers. Their values are
// not read: --values says so per pair rather than guessing at storage views.
#include <gtest/gtest.h>

#include "diff_run.hpp"
#include "pickle_builder.hpp"
#include "st_builder.hpp"
#include "zip_builder.hpp"

namespace {

using namespace tgtest;
using tensorgate::ChangeKind;
using tensorgate::ChangeSet;

const std::vector<TorchTensor> kOld = {
    {"embed.weight", "FloatStorage", {8, 4}},
    {"norm.weight", "FloatStorage", {4}},
    {"head.weight", "FloatStorage", {8, 4}},
    {"old_only.bias", "FloatStorage", {2}},
};

TEST(DiffPytorch, ArchivesDiffFromTheirStateDicts) {
  const std::vector<TorchTensor> changed = {
      {"embed.weight", "FloatStorage", {9, 4}},  // a resized vocabulary
      {"norm.weight", "HalfStorage", {4}},       // re-typed
      {"head.weight", "FloatStorage", {8, 4}},
      {"extra.scale", "FloatStorage", {3}},
  };
  const Model a = file_model("pytorch_model.bin", torch_archive(kOld));
  const Model b = file_model("pytorch_model.bin", torch_archive(changed));
  const DiffRun same = diff_pair(a, a);
  ASSERT_FALSE(same.report.invalid) << *same.report.invalid;
  EXPECT_EQ(same.changes(), "");
  EXPECT_EQ(same.report.unchanged.size(), 4u);
  EXPECT_EQ(same.report.old_side.parameters, 32u + 4 + 32 + 2);

  ChangeSet gate;
  gate.add(ChangeKind::shape);
  const DiffRun r = diff_pair(a, b, with_values(false, gate));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "embed.weight:shape extra.scale:added norm.weight:dtype old_only.bias:removed");
  EXPECT_EQ(r.change("norm.weight")->old_tensor->dtype, "F32");
  EXPECT_EQ(r.change("norm.weight")->new_tensor->dtype, "F16");
  EXPECT_EQ(r.change("embed.weight")->new_tensor->shape, (std::vector<std::uint64_t>{9, 4}));
  EXPECT_TRUE(r.report.gate_failed);
  EXPECT_EQ(r.report.new_side.parameters, 36u + 4 + 32 + 3);
}

TEST(DiffPytorch, LegacyStreamAgainstItsArchive) {
  const DiffRun r = diff_pair(file_model("model.pt", legacy_torch_stream(kOld)),
                              file_model("pytorch_model.bin", torch_archive(kOld)));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "");
  EXPECT_EQ(r.report.unchanged.size(), 4u);
  EXPECT_EQ(r.report.old_side.files[0].format, "pickle");
  EXPECT_EQ(r.report.new_side.files[0].format, "zip");
}

TEST(DiffPytorch, ValuesAreNotReadAndSaySo) {
  const DiffRun r = diff_pair(file_model("pytorch_model.bin", torch_archive(kOld)),
                              file_model("pytorch_model.bin", torch_archive(kOld)), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "");
  EXPECT_EQ(r.report.bytes_read, 0u);
  ASSERT_EQ(r.report.notes.size(), 1u);
  EXPECT_NE(r.report.notes[0].find("the values of 4 tensor pairs were not compared"), std::string::npos);
  // A safetensors conversion against the checkpoint: the pairs are matched, the values not read.
  const std::string st = st_file(
      R"({"norm.weight":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", std::string(16, '\0'));
  const DiffRun mixed = diff_pair(file_model("pytorch_model.bin", torch_archive({kOld[1]})),
                                  file_model("model.safetensors", st), with_values(true));
  ASSERT_FALSE(mixed.report.invalid) << *mixed.report.invalid;
  EXPECT_EQ(mixed.changes(), "");
  EXPECT_EQ(mixed.report.unchanged, std::vector<std::string>{"norm.weight"});
  ASSERT_EQ(mixed.report.notes.size(), 1u);
  EXPECT_NE(mixed.report.notes[0].find("the values of 1 tensor pair were not compared"), std::string::npos);
  // A changed pair carries the reason.
  const DiffRun resized = diff_pair(file_model("pytorch_model.bin", torch_archive({kOld[1]})),
                                    file_model("pytorch_model.bin", torch_archive({{"norm.weight", "HalfStorage", {4}}})),
                                    with_values(true));
  const tensorgate::TensorChange* c = resized.change("norm.weight");
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->values);
  EXPECT_FALSE(c->values->compared);
  EXPECT_NE(c->values->reason.find("PyTorch checkpoint"), std::string::npos);
}

}  // namespace
