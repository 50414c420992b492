// Split GGUF sets (family GS), with sets the tests build as gguf-split writes them
// (split_builder.hpp), each rule in both verdicts. Every set is checked the three ways a face
// can: as a directory, as files given together, and as /v1/check-model's GGUF reports; the
// findings must agree.
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "split_builder.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/report_writers.hpp"

using tensorgate::GgufSummary;

namespace {

using tgtest::ShardSpec;
using tgtest::split_set;

std::string ids(const tensorgate::DirectoryReport& r) {
  std::string out;
  for (const auto& f : r.findings) out += (out.empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
  return out;
}

std::string rendered(const tensorgate::DirectoryReport& r) {
  std::string out;
  tensorgate::JsonWriter w([&out](std::string_view s) { out += s; });
  w.begin_object();
  tensorgate::write_directory_report_fields(w, r);
  w.end_object();
  w.flush();
  return out;
}

tensorgate::DirectoryReport check_set(const std::vector<ShardSpec>& shards) {
  tensorgate::ModelDirectory dir;
  std::vector<tensorgate::GgufFileFacts> facts;
  std::string request = "{\"files\": {";
  for (const auto& s : tgtest::build_shards(shards)) {
    const auto report = tensorgate::validate_gguf(s.bytes);
    facts.push_back(tensorgate::gguf_facts_of(s.name, report));
    dir.weights.push_back(tensorgate::inventory_of(s.name, report));  // as the CLI's walk adds it
    dir.file_names.push_back(s.name);
    request += (facts.size() > 1 ? ", \"" : "\"") + s.name + "\": " + tensorgate::report_json(report);
  }
  request += "}}";
  dir.gguf = facts;
  const auto as_directory = tensorgate::check_model_directory(dir);
  const auto as_files = tensorgate::check_split_set_files(facts);
  EXPECT_EQ(rendered(as_files), rendered(as_directory)) << "files given together";
  const auto as_request = tensorgate::check_model_request(request);
  EXPECT_TRUE(as_request.report) << as_request.error;
  if (as_request.report) {
    EXPECT_EQ(rendered(*as_request.report), rendered(as_directory)) << "/v1/check-model";
  }
  return as_directory;
}

TEST(GgufSplit, AWholeSetIsOneModel) {
  const auto r = check_set(split_set("Llama-3-8B-Q4_K_M", 3, 4));
  EXPECT_TRUE(r.valid) << ids(r);
  EXPECT_EQ(ids(r), "");
  const auto& s = r.summary;
  ASSERT_EQ(s.split_sets.size(), 1u);
  EXPECT_EQ(s.split_sets[0].prefix, "Llama-3-8B-Q4_K_M");
  EXPECT_EQ(s.split_sets[0].shard_count, 3u);
  EXPECT_EQ(s.split_sets[0].tensors, 10u);
  EXPECT_EQ(s.split_sets[0].parameters, 80u);
  EXPECT_EQ(s.split_sets[0].bytes, 320u);
  EXPECT_EQ(s.split_sets[0].architecture, "llama");
  EXPECT_EQ(s.split_sets[0].layers, 4u);
  // The directory's totals are the set's.
  EXPECT_EQ(s.parameters, 80u);
  EXPECT_EQ(s.bytes, 320u);
  EXPECT_EQ(s.architecture, "llama");
  EXPECT_EQ(s.layers, 4u);
  EXPECT_TRUE(s.sharded);
  EXPECT_EQ(s.shard_count, 3u);
  EXPECT_EQ(s.weight_map_size, 10u);
  ASSERT_EQ(s.parameters_by_dtype.size(), 1u);
  EXPECT_EQ(s.parameters_by_dtype[0], (std::pair<std::string, std::uint64_t>{"F32", 80}));
  EXPECT_EQ(s.files, (std::vector<std::string>{"Llama-3-8B-Q4_K_M-00001-of-00003.gguf", "Llama-3-8B-Q4_K_M-00002-of-00003.gguf",
                                                "Llama-3-8B-Q4_K_M-00003-of-00003.gguf"}));
  EXPECT_TRUE(check_set(split_set("one", 1, 2)).valid) << "a set of one shard";
}

TEST(GgufSplit, ShardsAloneWarnOnlyForWhatIsTheirs) {
  // A later shard carries only its split keys; the first holds some of the blocks: the file
  // checks leave general.architecture and the block count to GS.
  for (const auto& s : tgtest::build_shards(split_set("m", 3, 4))) {
    const auto r = tensorgate::validate_gguf(s.bytes);
    EXPECT_TRUE(r.valid) << s.name;
    EXPECT_FALSE(r.has("GGW.architecture")) << s.name;
    EXPECT_FALSE(r.has("GGW.block-count")) << s.name;
    ASSERT_TRUE(r.summary.get<GgufSummary>());
    EXPECT_EQ(r.summary.get<GgufSummary>()->split_count, 3u);
    EXPECT_EQ(r.summary.get<GgufSummary>()->split_tensors_count, 10u);
  }
  // Outside a set both warnings stay.
  tgtest::ShardSpec lone;
  lone.block_count = 5;
  lone.architecture = true;
  lone.tensors = {"blk.0.w"};
  EXPECT_TRUE(tensorgate::validate_gguf(tgtest::shard_bytes(lone)).has("GGW.block-count"));
  lone.architecture = false;
  EXPECT_TRUE(tensorgate::validate_gguf(tgtest::shard_bytes(lone)).has("GGW.architecture"));
  // split keys of another type than llama.cpp reads: kept, and warned about.
  tgtest::GgufBuilder b;
  b.kv_str("general.architecture", "llama").kv_u32("split.count", 2).kv_str("split.no", "0");
  const auto r = tensorgate::validate_gguf(b.build());
  EXPECT_EQ(r.summary.get<GgufSummary>()->split_count, 2u);
  EXPECT_FALSE(r.summary.get<GgufSummary>()->split_no);
  EXPECT_TRUE(r.has("GGW.metadata-type"));
}

TEST(GgufSplit, NamesParse) {
  const auto n = tensorgate::parse_split_name("a-b-00002-of-00010.gguf");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->prefix, "a-b");
  EXPECT_EQ(n->number, 2u);
  EXPECT_EQ(n->count, 10u);
  for (const char* bad : {"-00001-of-00002.gguf", "a-0001-of-00002.gguf", "a-00001-of-00002.bin", "a-00001_of-00002.gguf",
                          "a-0000x-of-00002.gguf", "a.gguf"})
    EXPECT_FALSE(tensorgate::parse_split_name(bad)) << bad;
}

TEST(GgufSplit, Name) {
  auto set = split_set();
  set[1].name = "model-part2.gguf";
  auto r = check_set(set);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(ids(r), "GS.name GS.missing-shard");
  set = split_set();
  set[2].name = "model-00004-of-00003.gguf";
  EXPECT_EQ(ids(check_set(set)), "GS.name GS.missing-shard");
  set = split_set();
  set[0].name = "model-00000-of-00003.gguf";
  EXPECT_EQ(ids(check_set(set)), "GS.name GS.missing-shard");
  // A file with split.count 1 and split.no 0 is no set: any name will do.
  auto single = split_set("x", 1, 1);
  single[0].name = "x.gguf";
  EXPECT_EQ(ids(check_set(single)), "");
}

TEST(GgufSplit, Count) {
  auto set = split_set();
  set[1].split_count = 4;
  auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.count");
  EXPECT_NE(r.findings[0].message.find("split.count 4, its name says 3"), std::string::npos) << r.findings[0].message;
  set = split_set();
  set[2].split_count.reset();
  EXPECT_EQ(ids(check_set(set)), "GS.count");
}

TEST(GgufSplit, SplitNo) {
  // 1-based split.no, as users report writers getting wrong: every shard is off by one.
  auto set = split_set();
  for (std::size_t i = 0; i < set.size(); ++i) set[i].split_no = i + 1;
  auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.split-no GS.split-no GS.split-no");
  EXPECT_NE(r.findings[0].message.find("split.no 1, not 0"), std::string::npos) << r.findings[0].message;
  set = split_set();
  set[2].split_no = 1;  // repeated
  r = check_set(set);
  EXPECT_EQ(ids(r), "GS.split-no");
  EXPECT_NE(r.findings[0].message.find("(so has \"model-00002-of-00003.gguf\")"), std::string::npos) << r.findings[0].message;
  set = split_set();
  set[1].split_no.reset();
  EXPECT_EQ(ids(check_set(set)), "GS.split-no");
}

TEST(GgufSplit, MissingShard) {
  auto set = split_set("m", 4, 4);
  set.erase(set.begin() + 2);
  auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.missing-shard");
  EXPECT_NE(r.findings[0].message.find("\"m-00003-of-00004.gguf\""), std::string::npos) << r.findings[0].message;
  set = split_set("m", 4, 4);
  set.erase(set.begin());  // the first: its metadata is gone too
  EXPECT_EQ(ids(check_set(set)), "GS.missing-shard");
  // A lone shard of a large set: one finding, a few names and the count of the rest.
  auto lone = split_set("big", 200, 1);
  lone.resize(1);
  r = check_set(lone);
  EXPECT_EQ(ids(r), "GS.missing-shard");
  EXPECT_NE(r.findings[0].message.find("199 of the 200"), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("and 194 more"), std::string::npos) << r.findings[0].message;
}

TEST(GgufSplit, ExtraShard) {
  auto set = split_set();
  auto foreign = split_set("model", 4)[3];  // a shard of a four-shard set under the same prefix
  set.push_back(foreign);
  auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.extra-shard");
  EXPECT_NE(r.findings[0].message.find("\"model-00004-of-00004.gguf\""), std::string::npos);
  EXPECT_EQ(r.summary.split_sets.at(0).files.size(), 3u) << "not counted in the set";
}

TEST(GgufSplit, TensorsCount) {
  auto set = split_set();
  set[1].split_tensors_count = 7;  // disagrees with the others
  EXPECT_EQ(ids(check_set(set)), "GS.tensors-count");
  set = split_set();
  for (auto& s : set) s.split_tensors_count = 9;  // all agree, but the shards hold 8
  auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.tensors-count");
  EXPECT_NE(r.findings[0].message.find("split.tensors.count is 9, the 3 shards hold 8 tensors"), std::string::npos);
  // A foreign shard with its set's counts but other tensors: the sum tells.
  set = split_set();
  set[1].tensors.push_back("extra.weight");
  EXPECT_EQ(ids(check_set(set)), "GS.tensors-count");
  set = split_set();
  set[0].split_tensors_count.reset();
  EXPECT_EQ(ids(check_set(set)), "GS.tensors-count");
}

TEST(GgufSplit, DuplicateTensor) {
  auto set = split_set();
  set[2].tensors.push_back(set[0].tensors[1]);
  for (auto& s : set) s.split_tensors_count = 9;
  const auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.duplicate-tensor");
  EXPECT_EQ(r.findings[0].tensor, set[0].tensors[1]);
}

TEST(GgufSplit, Architecture) {
  auto set = split_set();
  set[0].architecture = false;
  set[0].block_count.reset();
  EXPECT_EQ(ids(check_set(set)), "GS.architecture");
  set = split_set();
  set[1].architecture = true;  // a later shard may carry it too
  EXPECT_EQ(ids(check_set(set)), "");
}

TEST(GgufSplit, InvalidShard) {
  auto set = split_set();
  set[1].corrupt = true;
  const auto r = check_set(set);
  EXPECT_EQ(ids(r), "GS.invalid-shard");
  EXPECT_FALSE(r.valid);
}

TEST(GgufSplit, BlockCountAcrossTheSet) {
  auto set = split_set("m", 3, 3);
  EXPECT_EQ(ids(check_set(set)), "");
  set[0].block_count = 5;
  const auto r = check_set(set);
  EXPECT_EQ(ids(r), "GGW.block-count");
  EXPECT_TRUE(r.valid) << "a warning";
}

TEST(GgufSplit, SetsAreCheckedEachOnTheirOwn) {
  auto a = split_set("model-Q4_K_M", 2), b = split_set("model-Q8_0", 3);
  b.erase(b.begin() + 1);
  a.insert(a.end(), b.begin(), b.end());
  const auto r = check_set(a);
  EXPECT_EQ(ids(r), "GS.missing-shard");
  ASSERT_EQ(r.summary.split_sets.size(), 2u);
  EXPECT_EQ(r.summary.split_sets[0].prefix, "model-Q4_K_M");
  EXPECT_EQ(r.summary.parameters, 0u) << "two models: no one total";
}

}  // namespace
