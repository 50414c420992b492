// tensorgate diff of PyTorch checkpoints: a torch.save archive (data.pkl's state dict) and the
// legacy torch.save stream are sides like safetensors files. --values reads a contiguous
// tensor's bytes from its stored storage entry; what it cannot read it says, per pair.
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

// The bytes of tensor `i` of kOld in its archive entries (data.pkl and byteorder come first).
std::string& storage_of(std::vector<ZipEntrySpec>& entries, std::size_t i) { return entries[2 + i].data; }

TEST(DiffPytorch, ValuesAreReadFromStoredEntries) {
  const Model a = file_model("pytorch_model.bin", torch_archive(kOld));
  const DiffRun same = diff_pair(a, a, with_values(true));
  ASSERT_FALSE(same.report.invalid) << *same.report.invalid;
  EXPECT_EQ(same.changes(), "");
  EXPECT_EQ(same.report.unchanged.size(), 4u);
  EXPECT_TRUE(same.report.notes.empty());
  EXPECT_EQ(same.report.bytes_read, 2 * 4 * (32u + 4 + 32 + 2));  // every tensor's bytes, both sides

  std::vector<ZipEntrySpec> tuned = torch_entries(kOld);
  storage_of(tuned, 2)[4 * 5 + 3] ^= 0x40;  // head.weight's element 5: its exponent
  const DiffRun r = diff_pair(a, file_model("pytorch_model.bin", build_zip(tuned)), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "head.weight:values");
  const auto& v = *r.change("head.weight")->values;
  EXPECT_TRUE(v.compared);
  EXPECT_EQ(v.elements, 32u);
  EXPECT_EQ(v.changed, 1u);

  // A safetensors conversion with the same bytes is value-identical to the checkpoint.
  std::string data(16, '\0');
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<char>(k);  // as the archive's storage
  const std::string st = st_file(R"({"norm.weight":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", data);
  const DiffRun mixed = diff_pair(file_model("pytorch_model.bin", torch_archive({kOld[1]})),
                                  file_model("model.safetensors", st), with_values(true));
  ASSERT_FALSE(mixed.report.invalid) << *mixed.report.invalid;
  EXPECT_EQ(mixed.changes(), "");
  EXPECT_EQ(mixed.report.unchanged, std::vector<std::string>{"norm.weight"});
  EXPECT_TRUE(mixed.report.notes.empty());
  data[0] = 1;
  const DiffRun changed = diff_pair(file_model("pytorch_model.bin", torch_archive({kOld[1]})),
                                    file_model("model.safetensors", st_file(R"({"norm.weight":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", data)),
                                    with_values(true));
  EXPECT_EQ(changed.changes(), "norm.weight:values");
}

TEST(DiffPytorch, ValuesNotReadSaySo) {
  // A deflated storage entry and the legacy stream's records are not read: each pair says why,
  // and a note counts the pairs (an unchanged one is unchanged in its header only).
  std::vector<ZipEntrySpec> deflated = torch_entries(kOld);
  for (auto& e : deflated) e.deflate = true;
  const DiffRun r = diff_pair(file_model("pytorch_model.bin", build_zip(deflated)),
                              file_model("pytorch_model.bin", torch_archive(kOld)), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "");
  EXPECT_EQ(r.report.bytes_read, 0u);
  ASSERT_EQ(r.report.notes.size(), 1u);
  EXPECT_NE(r.report.notes[0].find("the values of 4 tensor pairs were not compared"), std::string::npos);

  const DiffRun legacy = diff_pair(file_model("model.pt", legacy_torch_stream({kOld[1]})),
                                   file_model("pytorch_model.bin", torch_archive({{"norm.weight", "HalfStorage", {4}}})),
                                   with_values(true));
  const tensorgate::TensorChange* c = legacy.change("norm.weight");
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->values);
  EXPECT_FALSE(c->values->compared);
  EXPECT_NE(c->values->reason.find("legacy torch.save stream"), std::string::npos);
}

}  // namespace
