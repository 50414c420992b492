// tensorgate diff on model pairs the tests build: identical, re-sharded, fine-tuned, resized,
// renamed, dtype changed, converted to GGUF (the audit's name map relates the names), and an
// invalid side. Each asserts the exact list of changed tensors and their kinds, and the gate.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "conversion_builder.hpp"
#include "diff_run.hpp"
#include "st_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace {

using namespace tgtest;
using tensorgate::ChangeKind;
using tensorgate::ChangeSet;
using tensorgate::MatchedBy;

ChangeSet kinds(std::initializer_list<ChangeKind> ks) {
  ChangeSet s;
  for (const ChangeKind k : ks) s.add(k);
  return s;
}

std::uint64_t count(const DiffRun& r, ChangeKind k) { return r.report.counts[static_cast<std::size_t>(k)]; }

SourceTensorData& tensor(std::vector<SourceTensorData>& ts, const std::string& name) {
  for (auto& t : ts)
    if (t.name == name) return t;
  throw std::runtime_error("no tensor " + name);
}

struct Pairs : ::testing::Test {
  TinyLlama m;
  std::vector<SourceTensorData> base = make_checkpoint(m);
  Model old_model = directory_model(source_files(m, base));
};

TEST_F(Pairs, IdenticalModelsHaveNoChangeWithOrWithoutValues) {
  for (const bool values : {false, true}) {
    const DiffRun r = diff_pair(old_model, old_model, with_values(values, ChangeSet::all()));
    EXPECT_EQ(r.changes(), "");
    EXPECT_EQ(r.keys(), "");
    EXPECT_EQ(r.report.unchanged.size(), 20u);
    EXPECT_FALSE(r.report.gate_failed);
    EXPECT_EQ(r.report.old_side.parameters, r.report.new_side.parameters);
  }
}

TEST_F(Pairs, ReshardedCopyIsValueIdentical) {
  const Model resharded = directory_model(source_files(m, base, 3));
  const DiffRun r = diff_pair(old_model, resharded, with_values(true, ChangeSet::all()));
  EXPECT_EQ(r.changes(), "");
  EXPECT_EQ(r.keys(), "");
  EXPECT_EQ(r.report.unchanged.size(), 20u);
  EXPECT_EQ(r.report.old_side.files.size(), 1u);
  EXPECT_EQ(r.report.new_side.files.size(), 3u);
  EXPECT_FALSE(r.report.gate_failed);
  // Every tensor's data was read from both sides.
  EXPECT_EQ(r.report.bytes_read, r.report.old_side.bytes + r.report.new_side.bytes);
}

TEST_F(Pairs, FineTunedCopyNamesTheTensorsThatChanged) {
  std::vector<SourceTensorData> tuned = base;
  tensor(tuned, "model.layers.0.self_attn.q_proj.weight").data[10] ^= 1;  // one element's low bit
  std::string& down = tensor(tuned, "model.layers.1.mlp.down_proj.weight").data;
  for (const std::size_t e : {0u, 7u, 100u}) down[2 * e + 1] ^= 0x40;  // three elements' exponents
  const Model tuned_model = directory_model(source_files(m, tuned));

  // The headers are the same: without --values nothing shows.
  const DiffRun headers = diff_pair(old_model, tuned_model);
  EXPECT_EQ(headers.changes(), "");
  EXPECT_EQ(headers.report.unchanged.size(), 20u);

  const DiffRun r = diff_pair(old_model, tuned_model, with_values(true, kinds({ChangeKind::shape, ChangeKind::dtype})));
  EXPECT_EQ(r.changes(), "model.layers.0.self_attn.q_proj.weight:values model.layers.1.mlp.down_proj.weight:values");
  EXPECT_EQ(r.report.unchanged.size(), 18u);
  const auto& q = *r.change("model.layers.0.self_attn.q_proj.weight")->values;
  EXPECT_TRUE(q.compared);
  EXPECT_FALSE(q.identical);
  EXPECT_EQ(q.elements, 256u);
  EXPECT_EQ(q.changed, 1u);
  ASSERT_TRUE(q.max_abs && q.max_rel);
  EXPECT_GT(*q.max_abs, 0);
  EXPECT_LT(*q.max_rel, 0x1p-6);  // the last of BF16's 8 bits
  EXPECT_EQ(r.change("model.layers.1.mlp.down_proj.weight")->values->changed, 3u);
  EXPECT_FALSE(r.report.gate_failed);  // values are not in the gate
  const DiffRun gated = diff_pair(old_model, tuned_model, with_values(true, kinds({ChangeKind::values})));
  EXPECT_TRUE(gated.report.gate_failed);
  EXPECT_EQ(gated.report.failed, kinds({ChangeKind::values}));
}

TEST_F(Pairs, ResizedVocabularyIsAShapeChangeWithItsRowsInCommonCompared) {
  TinyLlama bigger = m;
  bigger.vocab = 16;
  std::vector<SourceTensorData> resized = base;
  SourceTensorData& embed = tensor(resized, "model.embed_tokens.weight");
  embed.shape = {16, 16};
  embed.data += std::string(4 * 16 * 2, '\x11');  // four new rows after the twelve kept
  const DiffRun r = diff_pair(old_model, directory_model(source_files(bigger, resized)),
                              with_values(true, kinds({ChangeKind::shape})));
  EXPECT_EQ(r.changes(), "model.embed_tokens.weight:shape");
  EXPECT_EQ(r.keys(), "config:vocab_size");
  const auto& v = *r.change("model.embed_tokens.weight")->values;
  EXPECT_EQ(v.scope, "common-rows");
  EXPECT_TRUE(v.identical);
  EXPECT_EQ(v.elements, 12u * 16u);
  EXPECT_EQ(r.report.keys[0].old_value, "12");
  EXPECT_EQ(r.report.keys[0].new_value, "16");
  EXPECT_EQ(r.report.new_side.parameters - r.report.old_side.parameters, 64u);
  EXPECT_TRUE(r.report.gate_failed);
  EXPECT_EQ(r.report.failed, kinds({ChangeKind::shape}));
  // Rows that changed among those in common are counted.
  embed.data[3] ^= 0x01;
  const DiffRun changed = diff_pair(old_model, directory_model(source_files(bigger, resized)), with_values());
  EXPECT_EQ(changed.changes(), "model.embed_tokens.weight:shape+values");
  EXPECT_EQ(changed.change("model.embed_tokens.weight")->values->changed, 1u);
}

TEST_F(Pairs, RenamedLayerIsFoundByNamePatternFromTheHeaders) {
  std::vector<SourceTensorData> renamed = base;
  for (auto& t : renamed)
    if (t.name.starts_with("model.layers.1.")) t.name = "model.blocks.1." + t.name.substr(15);
  const Model renamed_model = directory_model(source_files(m, renamed));
  for (const bool values : {false, true}) {
    const DiffRun r = diff_pair(old_model, renamed_model, with_values(values, kinds({ChangeKind::added, ChangeKind::removed})));
    EXPECT_EQ(count(r, ChangeKind::renamed), 9u);
    EXPECT_EQ(r.report.changes.size(), 9u);
    for (const auto& c : r.report.changes) {
      EXPECT_EQ(c.kinds, kinds({ChangeKind::renamed})) << c.old_tensor->name;
      EXPECT_EQ(c.matched_by, MatchedBy::pattern);
      EXPECT_EQ("model.blocks.1." + c.old_tensor->name.substr(15), c.new_tensor->name);
      if (values) {
        EXPECT_TRUE(c.values->identical);
      }
    }
    EXPECT_FALSE(r.report.gate_failed);
  }
}

TEST_F(Pairs, AmbiguousRenamesNeedTheContentHash) {
  // gate_proj and up_proj are both [24, 16] BF16: the name pattern fits either way round.
  std::vector<SourceTensorData> renamed = base;
  tensor(renamed, "model.layers.1.mlp.gate_proj.weight").name = "model.layers.1.mlp.w1.weight";
  tensor(renamed, "model.layers.1.mlp.up_proj.weight").name = "model.layers.1.mlp.w3.weight";
  tensor(renamed, "model.layers.0.self_attn.o_proj.weight").name = "model.layers.0.self_attn.out_proj.weight";
  const Model renamed_model = directory_model(source_files(m, renamed));

  const DiffRun headers = diff_pair(old_model, renamed_model);
  EXPECT_EQ(headers.changes(),
            "model.layers.0.self_attn.o_proj.weight>model.layers.0.self_attn.out_proj.weight:renamed "
            "model.layers.1.mlp.gate_proj.weight:removed model.layers.1.mlp.up_proj.weight:removed "
            "model.layers.1.mlp.w1.weight:added model.layers.1.mlp.w3.weight:added");

  const DiffRun r = diff_pair(old_model, renamed_model, with_values());
  EXPECT_EQ(r.changes(),
            "model.layers.0.self_attn.o_proj.weight>model.layers.0.self_attn.out_proj.weight:renamed "
            "model.layers.1.mlp.gate_proj.weight>model.layers.1.mlp.w1.weight:renamed "
            "model.layers.1.mlp.up_proj.weight>model.layers.1.mlp.w3.weight:renamed");
  EXPECT_EQ(r.change("model.layers.1.mlp.w1.weight")->matched_by, MatchedBy::content);
  EXPECT_EQ(r.change("model.layers.0.self_attn.out_proj.weight")->matched_by, MatchedBy::pattern);
}

TEST_F(Pairs, DtypeChangeWithEqualValues) {
  std::vector<SourceTensorData> widened = base;
  for (auto& t : widened) {
    if (t.shape.size() != 1) continue;  // the five norms, BF16 -> F32 exactly
    std::string f32;
    for (std::size_t i = 0; i < t.data.size(); i += 2) f32 += std::string("\0\0", 2) + t.data.substr(i, 2);
    t.dtype = tensorgate::Dtype::F32;
    t.data = f32;
  }
  const DiffRun r = diff_pair(old_model, directory_model(source_files(m, widened)), with_values(true, kinds({ChangeKind::dtype})));
  EXPECT_EQ(r.changes(),
            "model.layers.0.input_layernorm.weight:dtype model.layers.0.post_attention_layernorm.weight:dtype "
            "model.layers.1.input_layernorm.weight:dtype model.layers.1.post_attention_layernorm.weight:dtype "
            "model.norm.weight:dtype");
  for (const auto& c : r.report.changes) {
    EXPECT_EQ(c.old_tensor->dtype, "BF16");
    EXPECT_EQ(c.new_tensor->dtype, "F32");
    EXPECT_EQ(c.values->changed, 0u);
    EXPECT_FALSE(c.values->identical);  // the bytes are not the same
  }
  EXPECT_TRUE(r.report.gate_failed);
}

TEST_F(Pairs, SafetensorsAndItsGgufAreRelatedByTheAuditsNameMap) {
  const Conversion c(m);
  const Model gguf = file_model("model.gguf", c.parts().build());
  for (const bool values : {false, true}) {
    const DiffRun r = diff_pair(old_model, gguf, with_values(values));
    EXPECT_EQ(r.report.name_map, "llama");
    // Norms widened to F32, rope_freqs generated; q and k equal after the permutation.
    EXPECT_EQ(count(r, ChangeKind::dtype), 5u);
    EXPECT_EQ(count(r, ChangeKind::added), 1u);
    EXPECT_EQ(count(r, ChangeKind::removed), 0u);
    EXPECT_EQ(count(r, ChangeKind::values), 0u);
    EXPECT_EQ(count(r, ChangeKind::shape), 0u);
    EXPECT_EQ(r.report.changes.size(), 6u);
    EXPECT_EQ(r.report.unchanged.size(), 15u);
    const auto* rope = r.change("rope_freqs.weight");
    ASSERT_NE(rope, nullptr);
    EXPECT_EQ(rope->note, "generated by llama.cpp's converter");
    const auto* norm = r.change("blk.0.attn_norm.weight");
    ASSERT_NE(norm, nullptr);
    EXPECT_EQ(norm->old_tensor->name, "model.layers.0.input_layernorm.weight");
    EXPECT_EQ(norm->matched_by, MatchedBy::name_map);
    if (values) {
      EXPECT_EQ(norm->values->changed, 0u);
    }
  }
  // The other way round, the generated tensor is the one removed.
  const DiffRun back = diff_pair(gguf, old_model, with_values());
  EXPECT_EQ(count(back, ChangeKind::removed), 1u);
  EXPECT_EQ(count(back, ChangeKind::dtype), 5u);
  EXPECT_EQ(count(back, ChangeKind::values), 0u);
}

TEST_F(Pairs, GgufWithoutThePermutationHasChangedQkValues) {
  const Conversion c(m);
  ConvertOptions o;
  o.permute_qk = false;
  const DiffRun r = diff_pair(old_model, file_model("model.gguf", c.parts(o).build()), with_values());
  EXPECT_EQ(count(r, ChangeKind::values), 4u);  // q and k of both layers
  for (const std::string name : {"blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.1.attn_q.weight", "blk.1.attn_k.weight"})
    EXPECT_EQ(r.change(name)->kinds, kinds({ChangeKind::values})) << name;
}

TEST_F(Pairs, InvalidSideIsNoDiffAndFailsTheGate) {
  Files broken = old_model.files;
  broken["model.safetensors"].resize(broken["model.safetensors"].size() - 5);
  const DiffRun r = diff_pair(old_model, directory_model(broken), with_values());
  ASSERT_TRUE(r.report.invalid);
  EXPECT_NE(r.report.invalid->find("NEW: new/model.safetensors is invalid"), std::string::npos);
  EXPECT_TRUE(r.report.changes.empty());
  EXPECT_TRUE(r.report.gate_failed);
  EXPECT_FALSE(r.report.new_side.valid);
  EXPECT_EQ(error_ids(tensorgate::validate_safetensors(broken["model.safetensors"])), "ST5.truncated");
}

TEST_F(Pairs, MetadataChangesOfLoneFiles) {
  const std::string a = st_file(R"({"__metadata__":{"format":"pt","note":"x"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", zeros(8));
  const std::string b = st_file(R"({"__metadata__":{"format":"np","extra":"y"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", zeros(8));
  const DiffRun r = diff_pair(file_model("a.safetensors", a), file_model("b.safetensors", b),
                              with_values(false, kinds({ChangeKind::metadata})));
  EXPECT_EQ(r.keys(), "metadata:extra metadata:format metadata:note");
  EXPECT_EQ(r.report.keys[0].new_value, "\"y\"");
  EXPECT_FALSE(r.report.keys[0].old_value);
  EXPECT_FALSE(r.report.keys[2].new_value);
  EXPECT_TRUE(r.report.gate_failed);
}

}  // namespace
