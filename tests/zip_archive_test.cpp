// The zip walker on PyTorch archives and other zips it builds record by record: the valid
// layouts (torch.save's stored bit-3 entries with FB padding, deflate, zip64, Python's
// streaming zipfile), the summary, pickles inside, .npz arrays, every split.
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/zip.hpp"
#include "zip_builder.hpp"

using tensorgate::ZipSummary;

namespace {

using namespace tgtest;

tensorgate::Report zip_report(std::string_view bytes, const tensorgate::Limits& limits = {}) {
  return check_stream([&] { return tensorgate::make_zip_validator(limits); }, bytes);
}

const std::vector<TorchTensor> kTensors = {{"model.embed.weight", "BFloat16Storage", {16, 8}},
                                           {"model.norm.weight", "FloatStorage", {8}}};

TEST(ZipArchive, TorchSaveArchiveIsValid) {
  const auto r = zip_report(torch_archive(kTensors));
  ASSERT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(errors_of(r) + warnings_of(r), "");
  EXPECT_EQ(r.format, tensorgate::Format::zip);
  const tensorgate::ZipSummary& z = *r.summary.get<ZipSummary>();
  EXPECT_EQ(z.entries, 5u);
  EXPECT_EQ(z.pytorch_archive, "archive");
  EXPECT_EQ(z.data_pkl_valid, true);
  ASSERT_EQ(z.storages.size(), 2u);
  EXPECT_EQ(z.storages[0].entry, "archive/data/0");
  EXPECT_EQ(z.storages[0].bytes, 256u);
  EXPECT_EQ(z.storages[0].dtype, "BF16");
  EXPECT_EQ(z.storages[0].numel, 128u);
  const tensorgate::PickleSummary* state = tensorgate::pytorch_state(z);
  ASSERT_TRUE(state);
  ASSERT_EQ(state->tensors.size(), 2u);
  EXPECT_EQ(state->tensors[0].name, "model.embed.weight");
  EXPECT_EQ(state->tensors[0].shape, (std::vector<std::uint64_t>{16, 8}));
  EXPECT_EQ(z.entry_list[0].content, "pickle");
  EXPECT_EQ(z.entry_list[2].content, "data");
}

TEST(ZipArchive, DataDescriptorsFoundWithoutTheStorageHint) {
  // data.pkl names no storages: every stored entry's end is found by the search.
  auto entries = torch_entries(kTensors);
  entries[0].data = PickleBuilder().proto(2).op('}').stop().bytes();
  const auto r = zip_report(build_zip(entries));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.summary.get<ZipSummary>()->entries, 5u);
}

TEST(ZipArchive, DataPklThatMisstatesAStorageSizeIsFoundOut) {
  auto entries = torch_entries(kTensors);
  entries[2].data += "extra bytes";  // data/0 longer than its persistent id says
  const auto r = zip_report(build_zip(entries));
  EXPECT_EQ(errors_of(r), "ZP.size");
  EXPECT_NE(message_of(r, "ZP.size").find("data.pkl"), std::string::npos);
  EXPECT_EQ(r.summary.get<ZipSummary>()->storages[0].bytes, 267u);
}

TEST(ZipArchive, DeflatedAndStreamedEntries) {
  std::vector<ZipEntrySpec> entries = {{"a/data.pkl", state_dict_pickle({{"w", "FloatStorage", {3}}})},
                                       {"a/notes.txt", std::string(5000, 'n')}};
  for (auto& e : entries) e.deflate = true;
  EXPECT_TRUE(zip_report(build_zip(entries)).valid);
  for (auto& e : entries) e.descriptor_signature = false;  // Python's zipfile and others omit it
  EXPECT_TRUE(zip_report(build_zip(entries)).valid);
  for (auto& e : entries) e.descriptor = false;
  const auto r = zip_report(build_zip(entries));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.summary.get<ZipSummary>()->entry_list[1].method, 8);
  EXPECT_EQ(r.summary.get<ZipSummary>()->entry_list[1].uncompressed, 5000u);
}

TEST(ZipArchive, Zip64) {
  auto entries = torch_entries(kTensors);
  for (auto& e : entries) e.zip64 = true;
  ZipOptions o;
  o.zip64_end = true;
  const auto r = zip_report(build_zip(entries, o));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_TRUE(r.summary.get<ZipSummary>()->zip64);
  EXPECT_EQ(r.summary.get<ZipSummary>()->entries, 5u);
}

TEST(ZipArchive, EmptyZip) {
  const auto r = zip_report(build_zip({}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.summary.get<ZipSummary>()->entries, 0u);
}

TEST(ZipArchive, PickleByContentIsScanned) {
  // An entry named like data that holds a pickle: a loader that knows its name unpickles it.
  auto entries = torch_entries(kTensors);
  PickleBuilder evil;
  evil.proto(2).call("os", "system", "id");
  for (int i = 0; i < 10; ++i) evil.op('N').op('0');
  entries.insert(entries.begin() + 2, ZipEntrySpec{"archive/extra_state", evil.stop().bytes()});
  const auto r = zip_report(build_zip(entries));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("archive/extra_state"), std::string::npos);
  EXPECT_EQ(r.summary.get<ZipSummary>()->entry_list[2].content, "pickle");
}

TEST(ZipArchive, PickleFindingsPointIntoTheFile) {
  const std::string pkl = PickleBuilder().proto(2).call("os", "system", "id").stop().bytes();
  const std::string zip = build_zip({{"a/data.pkl", pkl}});
  const auto r = zip_report(zip);
  ASSERT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_EQ(zip.substr(*r.findings[0].offset, 4), "cos\n");
  // In a deflated entry the finding points at the entry's local header.
  std::vector<ZipEntrySpec> deflated = {{"a/data.pkl", pkl, true}};
  EXPECT_EQ(zip_report(build_zip(deflated)).findings[0].offset, 0u);
}

TEST(ZipArchive, NpzArrays) {
  const std::string good = npy_file("<f4", {2, 3}, std::string(24, '\0'));
  const std::string bad = npy_file("<f4", {2, 3}, std::string(20, '\0'));
  auto r = zip_report(build_zip({{"x.npy", good}, {"y.npy", good, true}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  ASSERT_EQ(r.summary.get<ZipSummary>()->arrays.size(), 2u);
  EXPECT_EQ(r.summary.get<ZipSummary>()->arrays[0].shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(errors_of(zip_report(build_zip({{"y.npy", bad}}))), "FK.npy-data");
  // An array whose header cannot be read is a finding, not an array of version 0.0.
  std::string version9 = good;
  version9[6] = 9;
  r = zip_report(build_zip({{"x.npy", good}, {"z.npy", version9}}));
  EXPECT_EQ(errors_of(r), "FK.npy-header");
  ASSERT_EQ(r.summary.get<ZipSummary>()->arrays.size(), 1u);
  EXPECT_EQ(r.summary.get<ZipSummary>()->arrays[0].descr, "<f4");
  // An object array holds a pickle: np.load(allow_pickle=True) runs it.
  const std::string obj = npy_file("|O", {1}, PickleBuilder().proto(3).call("os", "system", "id").stop().bytes());
  r = zip_report(build_zip({{"o.npy", obj}}));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_TRUE(r.summary.get<ZipSummary>()->arrays[0].object);
  // So does an array of a structure with an object field.
  const std::string structured = npy_file("[('a', '|O')]", {1}, PickleBuilder().proto(3).call("os", "system", "id").stop().bytes());
  r = zip_report(build_zip({{"s.npy", structured}}));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  ASSERT_EQ(r.summary.get<ZipSummary>()->arrays.size(), 1u);
  EXPECT_TRUE(r.summary.get<ZipSummary>()->arrays[0].object);
}

TEST(ZipArchive, EverySplitGivesTheSameReport) {
  auto deflated = torch_entries({{"w", "FloatStorage", {3}}});
  for (auto& e : deflated) e.deflate = true;
  std::vector<std::string> inputs = {torch_archive({{"w", "FloatStorage", {5}}}), build_zip(deflated),
                                           build_zip({{"a.npy", npy_file("<i2", {3}, "abcdef")}}),
                                           build_zip({{"a/b", "PK\x07\x08 not a descriptor PK\x03\x04"}})};
  // A pickle by content under a plain name: its CRC is summed across the content probe's end.
  ZipEntrySpec probed{"a/blob", PickleBuilder().proto(2).str(std::string(300, 'x')).stop().bytes()};
  inputs.push_back(build_zip({probed}));
  EXPECT_EQ(errors_of(zip_report(inputs.back())), "");
  probed.crc = 99;
  inputs.push_back(build_zip({probed}));
  EXPECT_EQ(errors_of(zip_report(inputs.back())), "ZP.size");
  for (const std::string& in : inputs) {
    const std::string want = render(zip_report(in));
    for (std::size_t a = 1; a < in.size(); a += 7)
      for (std::size_t b = a + 1; b < in.size(); b += 13)
        ASSERT_EQ(render(feed_split([] { return tensorgate::make_zip_validator(); }, in, {a, b})), want) << a << " " << b;
  }
}

TEST(ZipArchive, InflateIsBoundedByTheLimits) {
  std::vector<ZipEntrySpec> bomb = {{"a/b", std::string(1 << 20, '\0'), true}};
  tensorgate::Limits limits;
  limits.zip.max_inflated_bytes = 1 << 16;
  auto r = zip_report(build_zip(bomb), limits);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "zip-inflated-bytes");
  limits = {};
  limits.zip.max_entry_bytes = 1 << 16;
  r = zip_report(build_zip(bomb), limits);
  EXPECT_EQ(errors_of(r), "ZP.entry-too-large");
}

}  // namespace
