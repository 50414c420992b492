// tensorgate diff of ONNX models: initializers are a side's tensors. --values reads those whose
// raw_data is one field, at the offset the summary records; values in typed fields or external
// files are compared by dtype and shape only, and the pair says so.
#include <gtest/gtest.h>

#include <bit>

#include "diff_run.hpp"
#include "st_builder.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tgtest;
using namespace tgtest::wire;

std::string f32s(std::initializer_list<float> v) {
  std::string out;
  for (const float x : v) out += le(std::bit_cast<std::uint32_t>(x), 4);
  return out;
}

// A TensorProto: dims, data_type (1 FLOAT, 7 INT64, 10 FLOAT16), name, then its data fields.
std::string tensor(std::string_view name, std::uint64_t dtype, std::initializer_list<std::uint64_t> dims, std::string data) {
  std::string t;
  for (const std::uint64_t d : dims) t += field_varint(1, d);
  return t + field_varint(2, dtype) + field_len(8, name) + data;
}
std::string raw(std::string bytes) { return field_len(9, bytes); }
std::string initializer(std::string t) { return field_len(5, t); }
// A model of ir_version 8, opset 13, and a graph holding `graph` (its initializers).
std::string model(const std::string& graph) {
  return field_varint(1, 8) + field_len(2, "hand") + field_len(8, field_varint(2, 13)) + field_len(7, graph);
}
Model onnx(const std::string& graph) { return file_model("model.onnx", model(graph)); }

const std::string kOldGraph = initializer(tensor("w", 1, {2, 3}, raw(f32s({1, 2, 3, 4, 5, 6})))) +
                              initializer(tensor("b", 1, {3}, raw(f32s({0.5f, 0.25f, 0})))) +
                              initializer(tensor("old_only", 7, {2}, raw(std::string(16, '\1'))));

TEST(DiffOnnx, InitializersAddedRemovedReshapedRetyped) {
  const std::string changed = initializer(tensor("w", 1, {3, 3}, raw(f32s({1, 2, 3, 4, 5, 6, 7, 8, 9})))) +
                              initializer(tensor("b", 10, {3}, raw(std::string(6, '\0')))) +
                              initializer(tensor("new_only", 1, {1}, raw(f32s({7}))));
  const DiffRun same = diff_pair(onnx(kOldGraph), onnx(kOldGraph));
  ASSERT_FALSE(same.report.invalid) << *same.report.invalid;
  EXPECT_EQ(same.changes(), "");
  EXPECT_EQ(same.report.unchanged, (std::vector<std::string>{"b", "old_only", "w"}));
  EXPECT_EQ(same.report.old_side.files[0].format, "onnx");
  EXPECT_EQ(same.report.old_side.parameters, 6u + 3 + 2);

  const DiffRun r = diff_pair(onnx(kOldGraph), onnx(changed));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "b:dtype new_only:added old_only:removed w:shape");
  EXPECT_EQ(r.change("b")->old_tensor->dtype, "FLOAT");
  EXPECT_EQ(r.change("b")->new_tensor->dtype, "FLOAT16");
  EXPECT_EQ(r.change("w")->new_tensor->shape, (std::vector<std::uint64_t>{3, 3}));
  EXPECT_EQ(r.report.new_side.parameters, 9u + 3 + 1);
}

TEST(DiffOnnx, TheSummaryRecordsWhereRawDataStarts) {
  const std::string bytes = model(kOldGraph);
  auto v = tensorgate::make_onnx_validator();
  const tensorgate::Report r = tensorgate::validate_whole(*v, bytes);
  const auto* s = r.summary.get<tensorgate::OnnxSummary>();
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->initializers.size(), 3u);
  ASSERT_TRUE(s->initializers[0].data_offset);
  EXPECT_EQ(*s->initializers[0].data_offset, bytes.find(f32s({1, 2, 3, 4, 5, 6})));
  EXPECT_EQ(*s->initializers[2].data_offset, bytes.find(std::string(16, '\1')));
  EXPECT_EQ(s->initializers[0].offset + 2, bytes.find(tensor("w", 1, {2, 3}, "")));  // its tag and length first
  EXPECT_EQ(s->initializers[0].data, "raw");
}

TEST(DiffOnnx, ValuesOfRawDataAreCompared) {
  const DiffRun same = diff_pair(onnx(kOldGraph), onnx(kOldGraph), with_values(true));
  ASSERT_FALSE(same.report.invalid) << *same.report.invalid;
  EXPECT_EQ(same.changes(), "");
  EXPECT_TRUE(same.report.notes.empty());
  EXPECT_EQ(same.report.bytes_read, 2 * (24u + 12 + 16));  // every initializer's bytes, both sides

  const std::string tuned = initializer(tensor("w", 1, {2, 3}, raw(f32s({1, 2, 3, 4.5f, 5, 6})))) +
                            initializer(tensor("b", 1, {3}, raw(f32s({0.5f, 0.25f, 0})))) +
                            initializer(tensor("old_only", 7, {2}, raw(std::string(16, '\1'))));
  const DiffRun r = diff_pair(onnx(kOldGraph), onnx(tuned), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "w:values");
  const tensorgate::ValueDiff& v = *r.change("w")->values;
  EXPECT_TRUE(v.compared);
  EXPECT_EQ(v.elements, 6u);
  EXPECT_EQ(v.changed, 1u);
  EXPECT_EQ(v.max_abs, 0.5);

  // The same weights in a safetensors file: FLOAT is F32, the values are identical.
  const std::string st = st_file(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})", f32s({1, 2, 3, 4, 5, 6}));
  const DiffRun mixed = diff_pair(onnx(initializer(tensor("w", 1, {2, 3}, raw(f32s({1, 2, 3, 4, 5, 6}))))),
                                  file_model("model.safetensors", st), with_values(true));
  ASSERT_FALSE(mixed.report.invalid) << *mixed.report.invalid;
  EXPECT_EQ(mixed.changes(), "");
  EXPECT_EQ(mixed.report.unchanged, std::vector<std::string>{"w"});
  EXPECT_TRUE(mixed.report.notes.empty());
}

TEST(DiffOnnx, TypedExternalAndSplitDataAreComparedByHeaderOnly) {
  const auto typed = [](float x) { return initializer(tensor("t", 1, {2}, field_len(4, f32s({x, 2})))); };
  const std::string ext = initializer(tensor("e", 1, {2}, field_len(13, field_len(1, "location") + field_len(2, "w.bin")) +
                                                          field_varint(14, 1)));
  const std::string split = initializer(tensor("s", 1, {2}, raw(f32s({1})) + raw(f32s({2}))));
  const DiffRun r = diff_pair(onnx(typed(1) + ext + split), onnx(typed(9) + ext + split), with_values(true));
  ASSERT_FALSE(r.report.invalid) << *r.report.invalid;
  EXPECT_EQ(r.changes(), "");  // t's values differ, but they are not read
  EXPECT_EQ(r.report.bytes_read, 0u);
  ASSERT_EQ(r.report.notes.size(), 1u);
  EXPECT_NE(r.report.notes[0].find("the values of 3 tensor pairs were not compared"), std::string::npos);

  // A changed pair says why its values were not compared.
  const auto reshaped = [](std::string_view name, std::string data) { return initializer(tensor(name, 1, {1, 2}, std::move(data))); };
  const DiffRun c = diff_pair(onnx(typed(1) + ext + split),
                              onnx(reshaped("t", field_len(4, f32s({1, 2}))) +
                                   reshaped("e", field_len(13, field_len(1, "location") + field_len(2, "w.bin")) + field_varint(14, 1)) +
                                   reshaped("s", raw(f32s({1})) + raw(f32s({2})))),
                              with_values(true));
  ASSERT_FALSE(c.report.invalid) << *c.report.invalid;
  EXPECT_EQ(c.changes(), "e:shape s:shape t:shape");
  const auto reason = [&](const char* name) {
    const tensorgate::TensorChange* change = c.change(name);
    EXPECT_TRUE(change && change->values && !change->values->compared) << name;
    return change && change->values ? change->values->reason : std::string();
  };
  EXPECT_NE(reason("t").find("typed field"), std::string::npos);
  EXPECT_NE(reason("e").find("external data file"), std::string::npos);
  EXPECT_NE(reason("s").find("more than one field"), std::string::npos);
}

}  // namespace
