// The ONNX validator (core/src/onnx, family OX): models python3-onnx made pass with their summary,
// the same in any chunks; each rule refutes what it names, in a model built by hand.
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tgtest::wire;
using tensorgate::OnnxSummary;
using tensorgate::Report;

std::string fixture(const std::string& name) {
  return tgtest::test_data("onnx/" + name);
}

Report check(std::string_view bytes, std::size_t piece = 0) {
  auto v = tensorgate::make_onnx_validator();
  if (piece == 0) return tensorgate::validate_whole(*v, bytes);
  for (std::size_t i = 0; i < bytes.size(); i += piece) v->feed(bytes.substr(i, piece));
  return v->finish();
}

std::string rules(const Report& r) {
  std::string out;
  for (const auto& f : r.findings) out += (out.empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
  return out;
}

// A model: ir_version, the default opset, a graph of `graph` fields.
std::string model(std::string graph, std::uint64_t ir = 8, std::string opsets = field_len(8, field_varint(2, 13))) {
  return field_varint(1, ir) + field_len(2, "hand") + opsets + field_len(7, graph);
}
std::string tensor(std::string_view name, std::uint64_t dtype, std::initializer_list<std::uint64_t> dims, std::string data) {
  std::string t;
  for (const std::uint64_t d : dims) t += field_varint(1, d);
  return t + field_varint(2, dtype) + field_len(8, name) + data;
}
std::string initializer(std::string t) { return field_len(5, t); }
std::string external(std::string_view location, std::string extra = {}) {
  return field_len(13, field_len(1, "location") + field_len(2, location)) + extra + field_varint(14, 1);
}

TEST(Onnx, RecognisedByItsFirstFieldsWhateverTheName) {
  for (const char* name : {"add.onnx", "linear.onnx", "typed_data.onnx", "if_subgraph.onnx", "external.onnx"}) {
    const std::string bytes = fixture(name);
    EXPECT_EQ(tensorgate::detect_kind(bytes).format, tensorgate::Format::onnx) << name;
    const Report r = tgtest::check_detected("model.bin", bytes);  // in every split of the input
    EXPECT_EQ(r.format, tensorgate::Format::onnx) << name;
    EXPECT_EQ(tgtest::warnings_of(r), "FK.extension") << name;
    EXPECT_EQ(tgtest::errors_of(r), "") << name;
  }
  // A model from a newer onnx is still ONNX, and its IR version is the finding.
  const Report newer = tgtest::check_detected("m.onnx", model("", 15));
  EXPECT_EQ(newer.format, tensorgate::Format::onnx);
  EXPECT_EQ(tgtest::errors_of(newer), "OX.ir-version");
  // A start that breaks after the second field is an ONNX file with a wire finding.
  EXPECT_EQ(tgtest::errors_of(tgtest::check_detected("m.onnx", field_varint(1, 8) + field_len(2, "x") + "\xff")), "OX.wire");
  // Near misses stay unknown: ir_version 0, a first field of another wire type, a second field
  // ModelProto does not have, or of the wrong wire type; and two bytes that end the input.
  for (const std::string& bytes : {field_varint(1, 0) + field_len(2, "producer-name"), field_len(1, "abcdefghijk"),
                                  field_varint(1, 8) + field_varint(9, 1) + "0123456789",
                                  field_varint(1, 8) + field_varint(2, 1) + "0123456789", std::string("\x08\x08")}) {
    EXPECT_NE(tensorgate::detect_kind(bytes).format, tensorgate::Format::onnx) << bytes;
  }
}

TEST(Onnx, ModelsTheRealWriterMadePassWithTheirSummary) {
  for (const char* name : {"add.onnx", "linear.onnx", "typed_data.onnx", "if_subgraph.onnx", "external.onnx"}) {
    const std::string bytes = fixture(name);
    ASSERT_FALSE(bytes.empty()) << name;
    const Report r = check(bytes);
    EXPECT_TRUE(r.valid) << name << ": " << rules(r);
    EXPECT_EQ(rules(r), "") << name;
    ASSERT_NE(r.summary.get<OnnxSummary>(), nullptr) << name;
  }
  const Report linear_report = check(fixture("linear.onnx"));
  const OnnxSummary& linear = *linear_report.summary.get<OnnxSummary>();
  EXPECT_EQ(linear.producer_name, "tensorgate-fixtures");
  EXPECT_EQ(linear.nodes, 2u);
  ASSERT_EQ(linear.initializers.size(), 2u);
  EXPECT_EQ(linear.initializers[0].name, "weight");
  EXPECT_EQ(linear.initializers[0].dtype, "FLOAT");
  EXPECT_EQ(linear.initializers[0].shape, (std::vector<std::uint64_t>{4, 3}));
  EXPECT_EQ(linear.initializers[0].bytes, 48u);
  EXPECT_EQ(linear.initializers[0].data, "raw");
  EXPECT_EQ(linear.parameters, 15u);
  ASSERT_EQ(linear.inputs.size(), 1u);
  EXPECT_EQ(linear.inputs[0].type, "FLOAT");
  EXPECT_EQ(linear.inputs[0].shape, (std::vector<std::string>{"batch", "4"}));
  const Report cond_report = check(fixture("if_subgraph.onnx"));
  const OnnxSummary& cond = *cond_report.summary.get<OnnxSummary>();
  EXPECT_EQ(cond.graphs, 3u);
  EXPECT_EQ(cond.nodes, 3u);
  const Report ext_report = check(fixture("external.onnx"));
  const OnnxSummary& ext = *ext_report.summary.get<OnnxSummary>();
  ASSERT_EQ(ext.external_files.size(), 1u);
  EXPECT_EQ(ext.external_files[0].location, "external.onnx.data");
  EXPECT_EQ(ext.external_files[0].bytes_needed, 60u);  // the file onnx wrote holds exactly that
  EXPECT_EQ(ext.initializers[0].data, "external");
  const Report typed_report = check(fixture("typed_data.onnx"));
  const OnnxSummary& typed = *typed_report.summary.get<OnnxSummary>();
  EXPECT_EQ(typed.initializers[0].data, "typed");
}

// A NodeProto of `op_type` in `domain` (field 7; absent for the default domain), and a graph's
// node field holding one.
std::string node_body(std::string_view op_type, std::string_view domain = {}) {
  return field_len(1, "x") + field_len(2, "y") + field_len(4, op_type) + (domain.empty() ? "" : field_len(7, domain));
}
std::string node(std::string_view op_type, std::string_view domain = {}) { return field_len(1, node_body(op_type, domain)); }
std::string opset(std::uint64_t version, std::string_view domain = {}) {
  return field_len(8, (domain.empty() ? "" : field_len(1, domain)) + field_varint(2, version));
}

TEST(Onnx, OpTypesAreJudgedByTheirDomainsOperatorsAtTheImportedOpset) {
  const auto check_ops = [](std::string graph, std::string opsets, std::string functions = {}) {
    return check(model(std::move(graph), 8, std::move(opsets)) + functions);
  };
  EXPECT_EQ(rules(check_ops(node("Add") + node("Gelu") + node("Attention"), opset(23))), "");
  EXPECT_EQ(rules(check_ops(node("NoSuchOp"), opset(13))), "OX.unknown-op");
  const Report early = check_ops(node("Gelu") + node("Gelu"), opset(13));
  EXPECT_EQ(rules(early), "OX.unknown-op");  // once per op type
  EXPECT_EQ(early.findings[0].message, "op type \"Gelu\" (2 nodes) is defined from opset 20 of ai.onnx; the model imports opset 13");
  EXPECT_EQ(tgtest::message_of(check_ops(node("Upsample"), opset(13)), "OX.unknown-op"),
            "op type \"Upsample\" (1 node) is deprecated from opset 10 of ai.onnx; the model imports opset 13");
  EXPECT_EQ(rules(check_ops(node("Upsample"), opset(9))), "");
  // The other standard domains: ai.onnx.ml's own list; onnxruntime's com.microsoft is not judged.
  EXPECT_EQ(rules(check_ops(node("LinearRegressor", "ai.onnx.ml") + node("Attention", "com.microsoft"),
                            opset(13) + opset(3, "ai.onnx.ml"))), "");
  EXPECT_EQ(rules(check_ops(node("Gelu", "ai.onnx.ml"), opset(13) + opset(3, "ai.onnx.ml"))), "OX.unknown-op");
  // "ai.onnx" spelled out is the default domain; a model-local function defines what it names.
  EXPECT_EQ(rules(check_ops(node("Relu", "ai.onnx"), opset(13, "ai.onnx"))), "");
  const std::string function = field_len(25, field_len(1, "MyBlock") + field_len(7, node_body("Relu")));
  EXPECT_EQ(rules(check_ops(node("MyBlock"), opset(13), function)), "");
  EXPECT_EQ(rules(check_ops(node("MyBlock"), opset(13))), "OX.unknown-op");
}

TEST(Onnx, AMainGraphOutputIsAnInputAnInitializerOrANodesOutput) {
  const auto value = [](int field, std::string_view name) { return field_len(field, field_len(1, name)); };
  const auto with_outputs = [&](std::string outputs) {
    return check(model(value(11, "x") + node("Relu") + initializer(tensor("w", 1, {1}, field_len(9, std::string(4, '\0')))) + outputs, 8,
                       opset(13)));
  };
  EXPECT_EQ(rules(with_outputs(value(12, "y") + value(12, "x") + value(12, "w"))), "");
  const Report dangling = with_outputs(value(12, "y") + value(12, "z"));
  EXPECT_EQ(rules(dangling), "OX.dangling-output");
  EXPECT_EQ(dangling.findings[0].message, "graph output \"z\" is no node's output, graph input or initializer of the main graph");
  // A name only a subgraph defines is not the main graph's: the If node writes "y", its branch "q".
  const std::string branch = field_len(1, field_len(1, "x") + field_len(2, "q") + field_len(4, "Relu"));
  const std::string if_node = field_len(1, node_body("If") + field_len(5, field_len(1, "then_branch") + field_len(6, branch)));
  EXPECT_EQ(rules(check(model(value(11, "x") + if_node + value(12, "y") + value(12, "q"), 8, opset(13)))), "OX.dangling-output");
}

TEST(Onnx, EveryChunkingGivesTheSameReport) {
  for (const char* name : {"linear.onnx", "if_subgraph.onnx", "external.onnx"}) {
    const std::string bytes = fixture(name);
    const std::string whole = tensorgate::report_json(check(bytes));
    for (const std::size_t piece : {1u, 2u, 3u, 7u, 64u}) EXPECT_EQ(tensorgate::report_json(check(bytes, piece)), whole) << name;
  }
}

TEST(Onnx, ExternalDataStaysInTheModelsDirectory) {
  const std::string floats = std::string(12, '\0');
  for (const char* loc : {"../../etc/passwd", "/etc/passwd", "weights\\..\\x", "C:weights", "a/../../b"}) {
    const Report r = check(model(initializer(tensor("w", 1, {3}, external(loc)))));
    EXPECT_EQ(rules(r), "OX.external-location") << loc;
    EXPECT_FALSE(r.valid) << loc;
  }
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {3}, external(std::string("w\0.bin", 6))))))), "OX.external-location");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {3}, field_varint(14, 1)))))), "OX.external-location");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {3}, external("w.bin")))))), "");
  const std::string bad_offset = field_len(13, field_len(1, "offset") + field_len(2, "12a"));
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {3}, external("w.bin", bad_offset)))))), "OX.external-field");
  const std::string wrong_length = field_len(13, field_len(1, "length") + field_len(2, "8"));
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {3}, external("w.bin", wrong_length)))))), "OX.tensor-size");
}

TEST(Onnx, TensorDataMatchesItsShapeAndType) {
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {2, 3}, field_len(9, std::string(24, 'x'))))))), "");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {2, 3}, field_len(9, std::string(20, 'x'))))))), "OX.tensor-size");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 22, {3}, field_len(9, std::string(2, 'x'))))))), "");  // INT4: 3 in 2 bytes
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 26, {5}, field_len(9, std::string(2, 'x'))))))), "");  // INT2: 5 in 2 bytes
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 25, {5}, field_len(5, varint(1) + varint(2))))))), "");  // 4 a value
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 7, {2}, field_len(7, varint(1) + varint(2))))))), "");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 7, {3}, field_len(7, varint(1) + varint(2))))))), "OX.tensor-size");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {2}, field_len(7, varint(1) + varint(2))))))), "OX.tensor-size");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {2}, {}))))), "OX.tensor-size");  // no data at all
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {0}, {}))))), "");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 0, {1}, field_len(9, "x")))))), "OX.data-type");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 27, {1}, field_len(9, "x")))))), "OX.data-type");
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {UINT64_MAX}, {}))))), "OX.dims");  // -1
  EXPECT_EQ(rules(check(model(initializer(tensor("w", 1, {1ull << 40, 1ull << 40}, {}))))), "OX.dims");
}

TEST(Onnx, TheModelStatesItsVersionAndDefaultOpset) {
  const std::string graph = initializer(tensor("w", 1, {1}, field_len(9, "abcd")));
  EXPECT_EQ(rules(check(model(graph))), "");
  EXPECT_EQ(rules(check(model(graph, 0))), "OX.ir-version");
  EXPECT_EQ(rules(check(model(graph, 14))), "");
  EXPECT_EQ(rules(check(model(graph, 15))), "OX.ir-version");
  EXPECT_EQ(rules(check(field_len(8, field_varint(2, 13)) + field_len(7, graph))), "OX.ir-version");
  EXPECT_EQ(rules(check(model(graph, 8, field_len(8, field_len(1, "ai.onnx.ml") + field_varint(2, 3))))), "OX.opset");
  EXPECT_EQ(rules(check(model(graph, 8, field_len(8, field_len(1, "ai.onnx") + field_varint(2, 17))))), "");
}

TEST(Onnx, CustomOperatorDomainsAreWarnedOnce) {
  const std::string custom = field_len(1, field_len(4, "Mystery") + field_len(7, "com.example"));
  const Report r = check(model(custom + custom + field_len(1, field_len(4, "Add"))));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(rules(r), "OX.custom-domain");
  const OnnxSummary& s = *r.summary.get<OnnxSummary>();
  ASSERT_EQ(s.ops.size(), 2u);
  EXPECT_EQ(s.ops[0].op_type, "Mystery");
  EXPECT_EQ(s.ops[0].count, 2u);
}

TEST(Onnx, MalformedProtobufIsOneFinding) {
  const std::string m = model(initializer(tensor("w", 1, {1}, field_len(9, "abcd"))));
  EXPECT_EQ(rules(check(m.substr(0, m.size() - 3))), "OX.wire");
  EXPECT_EQ(rules(check(m + tag(3, 3))), "OX.wire");
  EXPECT_EQ(rules(check(std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11))), "OX.wire");
}

TEST(Onnx, AFieldPastTheBoundAbortsWithoutAVerdict) {
  tensorgate::Limits limits;
  limits.onnx.max_field_bytes = 8;
  auto v = tensorgate::make_onnx_validator(limits);
  const Report r = tensorgate::validate_whole(*v, model(initializer(tensor("a-long-name", 1, {1}, field_len(9, "abcd")))));
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "onnx-field-bytes");
  EXPECT_FALSE(r.valid);
}

TEST(Onnx, NestingPastTheBoundIsMalformed) {
  tensorgate::Limits limits;
  limits.onnx.max_depth = 3;  // graph, node, attribute: the attribute's graph is one too deep
  const std::string sub = field_len(1, field_len(4, "Identity"));
  const std::string m = model(field_len(1, field_len(4, "If") + field_len(5, field_len(6, sub))));
  auto v = tensorgate::make_onnx_validator(limits);
  EXPECT_EQ(rules(tensorgate::validate_whole(*v, m)), "OX.wire");
  EXPECT_EQ(rules(check(m)), "");
}

TEST(Onnx, AShapeListsItsFirstDimensionsOnly) {
  std::string dims;
  for (int i = 0; i < 100; ++i) dims += field_len(1, field_varint(1, 2));
  const std::string input = field_len(11, field_len(1, "x") + field_len(2, field_len(1, field_varint(1, 1) + field_len(2, dims))));
  const Report r = check(model(input));
  ASSERT_NE(r.summary.get<OnnxSummary>(), nullptr);
  const OnnxSummary& s = *r.summary.get<OnnxSummary>();
  ASSERT_EQ(s.inputs.size(), 1u);
  EXPECT_EQ(s.inputs[0].shape.size(), 64u);
  EXPECT_EQ(s.inputs[0].shape.back(), "2");
}

}  // namespace
