// The directory walk by content (FK, MD, SH for torch checkpoints): every regular file is looked
// at, model files of every kind are checked, the rest listed as no weights; pickle-only and
// GGUF-only directories are model directories; pytorch_model.bin.index.json gets SH's rules.
#include <gtest/gtest.h>

#include <algorithm>

#include "gguf_builder.hpp"
#include "inputs.hpp"
#include "model_dir_builder.hpp"
#include "model_dir_check.hpp"
#include "pickle_builder.hpp"
#include "zip_builder.hpp"

using namespace tgtest;
using tensorgate::Rule;

namespace {

struct Outcome {
  tensorgate::DirectoryReport dir;
  std::vector<tensorgate::CheckedFile> files;
  bool dir_has(Rule r) const {
    return std::any_of(dir.findings.begin(), dir.findings.end(), [&](const auto& f) { return f.rule == r; });
  }
  const tensorgate::Report& file(const std::string& name) const {
    for (const auto& f : files)
      if (f.path.ends_with("/" + name) && f.report) return *f.report;
    throw std::runtime_error("not checked: " + name);
  }
  bool checked(const std::string& name) const {
    return std::any_of(files.begin(), files.end(), [&](const auto& f) { return f.path.ends_with("/" + name); });
  }
  bool listed_other(const std::string& name) const {
    const auto& o = dir.summary.other_files;
    return std::any_of(o.begin(), o.end(), [&](const auto& f) { return f.name == name; });
  }
};

bool has(const tensorgate::Report& r, Rule rule) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const auto& f) { return f.rule == rule; });
}

Outcome run(const ScratchDir& d) {
  Outcome o;
  tensorgate::cli::check_model_directory(d.path().string(), tensorgate::FormatChoice::auto_detect, o.files);
  o.dir = *o.files.back().directory;
  o.files.pop_back();
  return o;
}

std::string os_system_pickle() { return PickleBuilder().proto(2).call("os", "system", "id").stop().bytes(); }

const char* const kLfs =
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";

ScratchDir llama_dir() {
  ScratchDir d;
  const LlamaShape s;
  d.write("config.json", s.config_json());
  d.write_weights(llama_tensors(s), 1);
  return d;
}

}  // namespace

TEST(ModelDirKinds, MaliciousBinBesideValidSafetensorsIsChecked) {
  const ScratchDir d = llama_dir();
  d.write("pytorch_model.bin", os_system_pickle());
  d.write("README.md", "# a model\n");
  d.write(".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text\n");
  const auto o = run(d);
  ASSERT_TRUE(o.checked("pytorch_model.bin"));
  const auto& bin = o.file("pytorch_model.bin");
  EXPECT_EQ(bin.format, tensorgate::Format::pickle);
  EXPECT_FALSE(bin.valid);
  EXPECT_TRUE(has(bin, Rule::pk_dangerous_global));
  EXPECT_TRUE(o.dir_has(Rule::md_invalid_file));
  EXPECT_TRUE(o.listed_other("README.md"));
  EXPECT_TRUE(o.listed_other(".gitattributes"));
  EXPECT_TRUE(o.listed_other("config.json"));
  EXPECT_FALSE(o.checked("README.md"));
  EXPECT_EQ(o.dir.summary.weights_format, "safetensors");
}

TEST(ModelDirKinds, ValidSafetensorsDirectoryListsItsOtherFiles) {
  const ScratchDir d = llama_dir();
  d.write("LICENSE", "Apache License 2.0\n");
  d.write("empty.txt", "");
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid);
  EXPECT_TRUE(o.listed_other("LICENSE"));
  ASSERT_TRUE(o.listed_other("empty.txt"));
  const auto& others = o.dir.summary.other_files;
  const auto e = std::find_if(others.begin(), others.end(), [](const auto& f) { return f.name == "empty.txt"; });
  EXPECT_EQ(e->format, tensorgate::Format::empty);
}

TEST(ModelDirKinds, LfsPointerInPlaceOfTheWeights) {
  ScratchDir d;
  d.write("config.json", LlamaShape{}.config_json());
  d.write("model.safetensors", kLfs);
  const auto o = run(d);
  const auto& r = o.file("model.safetensors");
  EXPECT_EQ(r.format, tensorgate::Format::lfs_pointer);
  EXPECT_TRUE(has(r, Rule::fk_lfs_pointer));
  EXPECT_FALSE(o.dir.valid);
  EXPECT_TRUE(o.dir_has(Rule::md_invalid_file));
}

TEST(ModelDirKinds, LfsPointerUnderAnyNameIsChecked) {
  const ScratchDir d = llama_dir();
  d.write("tokenizer.json", kLfs);
  const auto o = run(d);
  EXPECT_TRUE(has(o.file("tokenizer.json"), Rule::fk_lfs_pointer));
}

TEST(ModelDirKinds, HtmlUnderAWeightNameIsAnError) {
  const ScratchDir d = llama_dir();
  d.write("pytorch_model.bin", "<!DOCTYPE html><html><body>Sign in</body></html>\n");
  const auto o = run(d);
  const auto& r = o.file("pytorch_model.bin");
  EXPECT_EQ(r.format, tensorgate::Format::unknown);
  EXPECT_TRUE(has(r, Rule::fk_unknown));
  EXPECT_TRUE(o.dir_has(Rule::md_invalid_file));
}

TEST(ModelDirKinds, PickleWithNoUsualExtensionIsChecked) {
  const ScratchDir d = llama_dir();
  d.write("weights.data", os_system_pickle());
  const auto o = run(d);
  EXPECT_TRUE(has(o.file("weights.data"), Rule::pk_dangerous_global));
}

TEST(ModelDirKinds, TorchArchiveOnlyNeedsNoConfig) {
  ScratchDir d;
  d.write("model.pt", torch_archive({{"w", "FloatStorage", {2, 3}}, {"b", "FloatStorage", {3}}}));
  d.write("README.md", "hello\n");
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid);
  EXPECT_FALSE(o.dir_has(Rule::md_config_missing));
  EXPECT_FALSE(o.dir_has(Rule::md_no_weights));
  EXPECT_EQ(o.dir.summary.weights_format, "zip");
  EXPECT_EQ(o.dir.summary.weight_map_size, 2u);
}

TEST(ModelDirKinds, GgufOnlyNeedsNoConfig) {
  ScratchDir d;
  d.write("model-q4.gguf", gguf_minimal(2));
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid);
  EXPECT_FALSE(o.dir_has(Rule::md_config_missing));
  EXPECT_EQ(o.dir.summary.weights_format, "gguf");
}

TEST(ModelDirKinds, SafetensorsWithoutConfigStillNeedsIt) {
  ScratchDir d;
  d.write_weights(llama_tensors(LlamaShape{}), 1);
  EXPECT_TRUE(run(d).dir_has(Rule::md_config_missing));
}

TEST(ModelDirKinds, WalkFindsPickleAndGgufOnlyDirectories) {
  ScratchDir root;
  std::filesystem::create_directories(root.path() / "torch");
  std::filesystem::create_directories(root.path() / "gguf");
  std::filesystem::create_directories(root.path() / "docs");
  root.write("torch/model.ckpt", legacy_torch_stream({{"w", "FloatStorage", {4}}}));
  root.write("gguf/a.gguf", gguf_minimal(1));
  root.write("docs/notes.txt", "text\n");
  std::filesystem::create_directories(root.path() / "misc");  // a pickle and an .npy: no model directory
  root.write("misc/notes.txt", "text\n");
  root.write("misc/payload.pkl", os_system_pickle());
  root.write("misc/array.npy", npy_file("<f4", {2}, std::string(8, '\0')));
  const auto items = tensorgate::cli::expand_inputs({root.path().string()});
  auto find = [&](const std::string& suffix) {
    return std::find_if(items.begin(), items.end(), [&](const auto& i) { return i.path.ends_with(suffix); });
  };
  ASSERT_NE(find("/torch"), items.end());
  EXPECT_TRUE(find("/torch")->model_directory);
  ASSERT_NE(find("/gguf"), items.end());
  EXPECT_TRUE(find("/gguf")->model_directory);
  EXPECT_EQ(find("/docs"), items.end());  // no model file: nothing to check
  ASSERT_NE(find("/misc/payload.pkl"), items.end());
  EXPECT_FALSE(find("/misc/payload.pkl")->model_directory);
  EXPECT_NE(find("/misc/array.npy"), items.end());
  EXPECT_EQ(find("/misc/notes.txt"), items.end());
}

namespace {

// Two pickle shards and their index, as transformers writes a sharded torch checkpoint.
ScratchDir pickle_shards(const std::string& index_json) {
  ScratchDir d;
  d.write("pytorch_model-00001-of-00002.bin", torch_archive({{"a", "FloatStorage", {2, 2}}}));
  d.write("pytorch_model-00002-of-00002.bin", legacy_torch_stream({{"b", "FloatStorage", {3}}}));
  d.write("pytorch_model.bin.index.json", index_json);
  return d;
}

const char* const kGoodIndex =
    R"({"metadata":{"total_size":28},"weight_map":{"a":"pytorch_model-00001-of-00002.bin",)"
    R"("b":"pytorch_model-00002-of-00002.bin"}})";

}  // namespace

TEST(ModelDirKinds, ShardedPickleCheckpointIsValid) {
  const auto o = run(pickle_shards(kGoodIndex));
  EXPECT_TRUE(o.dir.valid);
  EXPECT_FALSE(o.dir_has(Rule::sh_missing_shard));
  EXPECT_FALSE(o.dir_has(Rule::sh_missing_tensor));
  EXPECT_FALSE(o.dir_has(Rule::sh_wrong_shard));
  EXPECT_FALSE(o.dir_has(Rule::sh_total_size));
  EXPECT_FALSE(o.dir_has(Rule::md_no_weights));
  EXPECT_TRUE(o.dir.summary.sharded);
  EXPECT_EQ(o.dir.summary.shard_count, 2u);
  EXPECT_EQ(o.dir.summary.weight_map_size, 2u);
}

TEST(ModelDirKinds, ShardedPickleIndexGetsShRules) {
  const auto missing = run(pickle_shards(
      R"({"metadata":{"total_size":28},"weight_map":{"a":"pytorch_model-00001-of-00002.bin","b":"gone.bin"}})"));
  EXPECT_TRUE(missing.dir_has(Rule::sh_missing_shard));
  const auto outside = run(pickle_shards(
      R"({"metadata":{"total_size":28},"weight_map":{"a":"../pytorch_model-00001-of-00002.bin","b":"pytorch_model-00002-of-00002.bin"}})"));
  EXPECT_TRUE(outside.dir_has(Rule::sh_unsafe_path));
  const auto wrong = run(pickle_shards(
      R"({"metadata":{"total_size":28},"weight_map":{"a":"pytorch_model-00002-of-00002.bin","b":"pytorch_model-00001-of-00002.bin"}})"));
  EXPECT_TRUE(wrong.dir_has(Rule::sh_wrong_shard));
  const auto unnamed = run(pickle_shards(
      R"({"metadata":{"total_size":28},"weight_map":{"a":"pytorch_model-00002-of-00002.bin","b":"pytorch_model-00002-of-00002.bin"}})"));
  EXPECT_TRUE(unnamed.dir_has(Rule::sh_missing_tensor));
  EXPECT_TRUE(unnamed.dir_has(Rule::sh_unreferenced_file));
}
