// Model directories (MD, SH, AR, TL): each check in both verdicts, on directories the tests
// write, and SmolLM2-135M's real inventory written sparse.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>

#include "model_dir_builder.hpp"
#include "tensorgate/safetensors/writer.hpp"
#include "tensorgate/validator.hpp"
#include "model_dir_check.hpp"

using namespace tgtest;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  tensorgate::DirectoryReport dir;
  std::vector<tensorgate::CheckedFile> files;
  std::string ids(tensorgate::Severity min = tensorgate::Severity::warning) const {
    std::string out;
    for (const auto& f : dir.findings) {
      if (static_cast<int>(f.severity) > static_cast<int>(min)) continue;
      out += (out.empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
    }
    return out;
  }
};

Outcome run(const ScratchDir& d) {
  Outcome o;
  tensorgate::cli::check_model_directory(d.path().string(), tensorgate::FormatChoice::auto_detect, o.files);
  o.dir = *o.files.back().directory;
  o.files.pop_back();
  return o;
}

void write_index(const ScratchDir& d, const boost::json::object& index) {
  d.write("model.safetensors.index.json", boost::json::serialize(index));
}

boost::json::object read_index(const ScratchDir& d) {
  std::ifstream in(d.path() / "model.safetensors.index.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  return boost::json::parse(text).as_object();
}

ScratchDir llama_dir(const LlamaShape& s, int shards = 1) {
  ScratchDir d;
  d.write("config.json", s.config_json());
  d.write_weights(llama_tensors(s), shards);
  return d;
}

}  // namespace

TEST(ModelDir, SingleFileUntiedLlamaIsValid) {
  const auto o = run(llama_dir(LlamaShape{}));
  EXPECT_TRUE(o.dir.valid) << o.ids();
  EXPECT_EQ(o.ids(), "");
  EXPECT_EQ(o.dir.summary.architecture, "llama");
  EXPECT_EQ(o.dir.summary.layers, 2u);
  EXPECT_FALSE(o.dir.summary.sharded);
  EXPECT_EQ(o.dir.summary.weight_map_size, 21u);  // 2 + 9 * 2 + lm_head
  EXPECT_EQ(o.files.size(), 1u);
}

TEST(ModelDir, TiedLlamaHasNoLmHead) {
  LlamaShape s;
  s.tied = true;
  const auto o = run(llama_dir(s));
  EXPECT_TRUE(o.dir.valid) << o.ids();
}

TEST(ModelDir, ShardedLlamaIsValidAndSummarized) {
  const auto o = run(llama_dir(LlamaShape{}, 2));
  EXPECT_TRUE(o.dir.valid) << o.ids();
  EXPECT_TRUE(o.dir.summary.sharded);
  EXPECT_EQ(o.dir.summary.shard_count, 2u);
  EXPECT_EQ(o.dir.summary.weight_map_size, 21u);
  ASSERT_EQ(o.dir.summary.parameters_by_dtype.size(), 1u);
  EXPECT_EQ(o.dir.summary.parameters_by_dtype[0].first, "F32");
  // embed 80 + norm 8 + lm_head 80 + 2 * (q 64 + k 32 + v 32 + o 64 + 3 * 96 + 2 * 8)
  EXPECT_EQ(o.dir.summary.parameters, 80u + 8u + 80u + 2u * (64u + 32u + 32u + 64u + 288u + 16u));
}

TEST(ModelDir, SmolLM2RealInventoryWrittenSparse) {
  const LlamaShape s{30, 576, 1536, 9, 3, 64, 49152, true, tensorgate::Dtype::BF16, std::nullopt};
  ScratchDir d;
  d.write("config.json", s.config_json());
  const auto tensors = llama_tensors(s);
  ASSERT_EQ(tensors.size(), 272u);
  d.write_weights(tensors, 1, {{"format", "pt"}}, true);
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid) << o.ids();
  EXPECT_EQ(o.dir.summary.parameters, 134'515'008u);
  EXPECT_EQ(o.dir.summary.layers, 30u);
  EXPECT_EQ(o.files.front().report->summary.get<tensorgate::SafetensorsSummary>()->data_length, 269'030'016u);  // SmolLM2-135M's last offset
}

TEST(ModelDir, ConfigMissingOrInvalid) {
  ScratchDir d;
  d.write_weights(llama_tensors(LlamaShape{}), 1);
  EXPECT_EQ(run(d).ids(), "MD.config-missing");
  d.write("config.json", "{\"model_type\": \"llama\",");
  EXPECT_EQ(run(d).ids(), "MD.config-invalid");
  d.write("config.json", R"({"model_type": "llama", "model_type": "gpt2"})");
  EXPECT_EQ(run(d).ids(), "MD.config-invalid");
  d.write("config.json", "[]");
  EXPECT_EQ(run(d).ids(), "MD.config-invalid");
}

TEST(ModelDir, NoWeights) {
  ScratchDir d;
  d.write("config.json", LlamaShape{}.config_json());
  const auto o = run(d);
  EXPECT_FALSE(o.dir.valid);
  EXPECT_EQ(o.ids(tensorgate::Severity::error), "MD.no-weights AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.missing-tensor AR.lm-head");
}

TEST(ModelDir, InvalidWeightsFile) {
  ScratchDir d = llama_dir(LlamaShape{});
  fs::resize_file(d.path() / "model.safetensors", fs::file_size(d.path() / "model.safetensors") - 1);
  const auto o = run(d);
  EXPECT_FALSE(o.dir.valid);
  EXPECT_EQ(o.dir.findings.at(0).rule, tensorgate::Rule::md_invalid_file);
  EXPECT_FALSE(o.files.at(0).report->valid);
}

TEST(ModelDir, TokenizerExactlyWhenTlTokenizerIsFile) {
  ScratchDir d;
  d.write("config.json", R"({"tl_arch": "bigram", "vocab_size": 5, "tl_tokenizer": "file"})");
  d.write_weights(bigram_tensors(5), 1, {{"format", "tinyllm"}});
  EXPECT_EQ(run(d).ids(), "MD.tokenizer-missing");
  d.write("tokenizer.json", "{}");
  EXPECT_EQ(run(d).ids(), "");
  d.write("config.json", R"({"tl_arch": "bigram", "vocab_size": 5, "tl_tokenizer": "byte"})");
  EXPECT_EQ(run(d).ids(), "MD.tokenizer-unexpected");
  // An ordinary Hugging Face checkpoint ships tokenizer.json freely.
  ScratchDir hf = llama_dir(LlamaShape{});
  hf.write("tokenizer.json", "{}");
  EXPECT_EQ(run(hf).ids(), "");
}

TEST(ModelDir, IndexMustHaveWeightMapAndTotalSize) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  auto index = read_index(d);
  index.erase("weight_map");
  write_index(d, index);
  EXPECT_EQ(run(d).ids(tensorgate::Severity::error).substr(0, 16), "SH.index-invalid");
  index = read_index(llama_dir(LlamaShape{}, 2));
  ScratchDir e = llama_dir(LlamaShape{}, 2);
  auto idx = read_index(e);
  idx["metadata"].as_object().erase("total_size");
  write_index(e, idx);
  EXPECT_EQ(run(e).ids(tensorgate::Severity::error).substr(0, 16), "SH.index-invalid");
  e.write("model.safetensors.index.json", R"({"weight_map": {"a": "x", "a": "y"}, "metadata": {"total_size": 0}})");
  EXPECT_EQ(run(e).ids(tensorgate::Severity::error).substr(0, 16), "SH.index-invalid");
}

TEST(ModelDir, ShardsOutsideTheDirectoryAreNeverOpened) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  auto index = read_index(d);
  const std::string victim = index["weight_map"].as_object().begin()->key();
  for (const char* bad : {"../model-00001-of-00002.safetensors", "/etc/passwd", "sub/model.safetensors", ".."}) {
    index["weight_map"].as_object()[victim] = bad;
    write_index(d, index);
    const auto o = run(d);
    EXPECT_NE(o.ids().find("SH.unsafe-path"), std::string::npos) << bad << ": " << o.ids();
    for (const auto& f : o.files) EXPECT_EQ(fs::path(f.path).parent_path(), d.path()) << f.path;
  }
}

TEST(ModelDir, MissingAndInvalidShards) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  fs::remove(d.path() / "model-00002-of-00002.safetensors");
  EXPECT_NE(run(d).ids().find("SH.missing-shard"), std::string::npos);
  ScratchDir e = llama_dir(LlamaShape{}, 2);
  fs::resize_file(e.path() / "model-00002-of-00002.safetensors", 12);
  EXPECT_NE(run(e).ids().find("SH.invalid-shard"), std::string::npos);
}

TEST(ModelDir, TensorInTheWrongShardOrNoShard) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  auto index = read_index(d);
  auto& map = index["weight_map"].as_object();
  map["model.norm.weight"] = map["model.norm.weight"].as_string() == "model-00001-of-00002.safetensors"
                                 ? "model-00002-of-00002.safetensors"
                                 : "model-00001-of-00002.safetensors";
  write_index(d, index);
  EXPECT_EQ(run(d).ids(), "SH.wrong-shard");
  map["model.norm.bias"] = "model-00001-of-00002.safetensors";
  write_index(d, index);
  EXPECT_EQ(run(d).ids(), "SH.wrong-shard SH.missing-tensor");
}

TEST(ModelDir, TensorTheIndexDoesNotName) {
  ScratchDir d;
  d.write("config.json", LlamaShape{}.config_json());
  auto tensors = llama_tensors(LlamaShape{});
  d.write_weights(tensors, 2);
  auto index = read_index(d);
  index["weight_map"].as_object().erase("model.layers.0.mlp.up_proj.weight");
  write_index(d, index);
  EXPECT_EQ(run(d).ids(), "SH.unindexed-tensor");  // total_size still counts the shards' bytes
}

TEST(ModelDir, TotalSizeAndShardNames) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  auto index = read_index(d);
  index["metadata"].as_object()["total_size"] = 12345;
  write_index(d, index);
  EXPECT_EQ(run(d).ids(), "SH.total-size");
  ScratchDir e = llama_dir(LlamaShape{}, 2);
  fs::rename(e.path() / "model-00002-of-00002.safetensors", e.path() / "model-00002-of-00003.safetensors");
  auto idx = read_index(e);
  for (auto& kv : idx["weight_map"].as_object())
    if (kv.value().as_string() == "model-00002-of-00002.safetensors") kv.value() = "model-00002-of-00003.safetensors";
  write_index(e, idx);
  EXPECT_EQ(run(e).ids(), "SH.shard-name");
}

TEST(ModelDir, UnreferencedFileIsAWarning) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  d.write_weights(bigram_tensors(2), 1);  // a stray model.safetensors
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid);
  EXPECT_EQ(o.ids(), "SH.unreferenced-file");
}

TEST(ModelDir, DuplicateTensorAcrossShards) {
  ScratchDir d = llama_dir(LlamaShape{}, 2);
  auto tensors = llama_tensors(LlamaShape{});
  std::vector<DirTensor> second;
  for (std::size_t i = 1; i < tensors.size(); i += 2) second.push_back(tensors[i]);
  second.push_back(tensors[0]);  // also in shard 1
  ScratchDir tmp;
  tmp.write_weights(second, 1);
  fs::copy_file(tmp.path() / "model.safetensors", d.path() / "model-00002-of-00002.safetensors",
                fs::copy_options::overwrite_existing);
  const auto ids = run(d).ids();
  EXPECT_NE(ids.find("SH.duplicate-tensor"), std::string::npos) << ids;
}

TEST(ModelDir, ArchitectureInventory) {
  LlamaShape s;
  auto tensors = llama_tensors(s);
  ScratchDir d;
  d.write("config.json", s.config_json());
  auto missing = tensors;
  missing.erase(missing.begin() + 5);
  d.write_weights(missing, 1);
  EXPECT_EQ(run(d).ids(), "AR.missing-tensor");
  auto wrong = tensors;
  for (auto& t : wrong)
    if (t.name == "model.layers.1.self_attn.k_proj.weight") t.shape = {8, 8};  // GQA: kv_heads*head_dim = 4
  d.write_weights(wrong, 1);
  EXPECT_EQ(run(d).ids(), "AR.shape");
  auto extra = tensors;
  extra.push_back({"model.layers.0.self_attn.rotary_emb.inv_freq", tensorgate::Dtype::F32, {2}});
  d.write_weights(extra, 1);
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid);
  EXPECT_EQ(o.ids(), "AR.unexpected-tensor");
}

TEST(ModelDir, LmHeadExactlyWhenNotTied) {
  LlamaShape untied;
  ScratchDir d;
  d.write("config.json", untied.config_json());
  LlamaShape tied = untied;
  tied.tied = true;
  d.write_weights(llama_tensors(tied), 1);
  EXPECT_EQ(run(d).ids(), "AR.lm-head");
  d.write("config.json", tied.config_json());
  d.write_weights(llama_tensors(untied), 1);
  EXPECT_EQ(run(d).ids(), "AR.lm-head");
}

TEST(ModelDir, ConfigFieldsAndUnknownArchitectures) {
  ScratchDir d = llama_dir(LlamaShape{});
  d.write("config.json", R"({"model_type": "llama", "num_hidden_layers": 2})");
  EXPECT_EQ(run(d).ids(), "AR.config");
  d.write("config.json", R"({"model_type": "gpt2"})");
  const auto o = run(d);
  EXPECT_TRUE(o.dir.valid);
  EXPECT_EQ(o.ids(tensorgate::Severity::info), "AR.unknown-architecture");
}

TEST(ModelDir, Bigram) {
  ScratchDir d;
  d.write("config.json", R"({"tl_arch": "bigram", "vocab_size": 5, "tl_tokenizer": "byte"})");
  d.write_weights(bigram_tensors(5), 1, {{"format", "tinyllm"}});
  EXPECT_TRUE(run(d).dir.valid);
  d.write_weights(bigram_tensors(4), 1, {{"format", "tinyllm"}});
  EXPECT_EQ(run(d).ids(), "AR.shape");
  d.write_weights({{"bigram.weight", tensorgate::Dtype::F16, {5, 5}}}, 1, {{"format", "tinyllm"}});
  EXPECT_EQ(run(d).ids(), "AR.shape");
  d.write_weights(bigram_tensors(5), 1, {{"format", "pt"}});
  EXPECT_EQ(run(d).ids(), "TL.format");
}

TEST(ModelDir, Int4TinyllmLlama) {
  LlamaShape s;
  s.int4_group = 4;
  ScratchDir d;
  d.write("config.json", s.config_json(true));
  d.write_weights(llama_tensors(s), 1, {{"format", "tinyllm"}, {"quant", "int4-g4-sym"}});
  EXPECT_TRUE(run(d).dir.valid) << run(d).ids();
  d.write_weights(llama_tensors(s), 1, {{"format", "tinyllm"}, {"quant", "int4-g4"}});
  EXPECT_EQ(run(d).ids().substr(0, 8), "TL.quant");
  auto broken = llama_tensors(s);
  for (auto& t : broken)
    if (t.name == "model.layers.0.mlp.up_proj.weight.scales") t.shape = {12, 4};  // in/group is 2
  d.write_weights(broken, 1, {{"format", "tinyllm"}, {"quant", "int4-g4-sym"}});
  EXPECT_EQ(run(d).ids(), "TL.int4 TL.int4");  // the pair against itself, and against config.json
  auto lonely = llama_tensors(s);
  std::erase_if(lonely, [](const DirTensor& t) { return t.name == "model.layers.1.mlp.down_proj.weight.scales"; });
  d.write_weights(lonely, 1, {{"format", "tinyllm"}, {"quant", "int4-g4-sym"}});
  EXPECT_EQ(run(d).ids(), "TL.int4 TL.int4");
}

// A lone file's validator holds it to the conventions it claims, as warnings (so the CLI and
// /v1/validate report the same); the same file inside a directory gets them as errors.
TEST(ModelDir, LoneFilesGetTinyllmConventionsAsWarnings) {
  const std::vector<std::byte> data(8);
  const tensorgate::TensorSpec w{"w.qweight", tensorgate::Dtype::U8, {4, 2}, data};
  const auto file = tensorgate::write_safetensors({&w, 1}, {{"format", "tinyllm"}, {"quant", "int4-gx-sym"}});
  ASSERT_TRUE(file.ok()) << file.error;
  const tensorgate::Report r = tensorgate::validate_safetensors(file.bytes);
  EXPECT_TRUE(r.valid);
  std::vector<tensorgate::Rule> tl;
  for (const auto& x : r.findings) {
    if (rule_info(x.rule).family != "TL") continue;
    tl.push_back(x.rule);
    EXPECT_EQ(x.severity, tensorgate::Severity::warning);
  }
  EXPECT_EQ(tl, (std::vector{tensorgate::Rule::tl_quant, tensorgate::Rule::tl_int4}));
  const tensorgate::Report plain = tensorgate::validate_safetensors(tensorgate::write_safetensors({&w, 1}).bytes);
  EXPECT_FALSE(plain.has("TL"));  // no claim, no conventions
}
