// The SavedModel validator (core/src/savedmodel, family TF): files TensorFlow wrote pass with
// their summary, the same in any chunks; each rule refutes what it names, in files built by
// hand; a directory's variables against their index.
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tgtest::wire;
using tensorgate::Report;
using tensorgate::SavedModelSummary;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) {
  return tgtest::test_data("savedmodel/" + name);
}

const SavedModelSummary& summary(const Report& r) { return *r.summary.get<SavedModelSummary>(); }

// saved_model.pb: schema version 1, one meta graph tagged "serve" with this graph.
std::string saved_model(std::string graph) {
  return field_varint(1, 1) + field_len(2, field_len(1, field_len(4, "serve")) + field_len(2, graph));
}
std::string node(std::string_view name, std::string_view op, std::string attrs = {}) {
  return field_len(1, field_len(1, name) + field_len(2, op) + attrs);
}
std::string attr(std::string_view key, std::string value) { return field_len(5, field_len(1, key) + field_len(2, value)); }
std::string string_value(std::string_view s) { return field_len(2, s); }
std::string list_value(std::string_view s) { return field_len(1, field_len(2, s)); }
std::string library(std::string_view function, std::string nodes) {
  return field_len(2, field_len(1, field_len(1, field_len(1, function)) + nodes));
}
// A function's node is field 3 of FunctionDef (a graph's is field 1).
std::string function_node(std::string_view name, std::string_view op) {
  return field_len(3, field_len(1, name) + field_len(2, op));
}
std::string keras_metadata(std::string_view path, std::string_view json) {
  return field_len(1, field_len(3, path) + field_len(4, "_tf_keras_layer") + field_len(5, json));
}

TEST(SavedModel, FilesTensorFlowWroteAreRecognisedAndPass) {
  for (const char* name : {"half_plus_two_tf1/saved_model.pb", "half_plus_two_tf2/saved_model.pb", "keras_text/keras_metadata.pb"}) {
    const std::string bytes = fixture(name);
    ASSERT_FALSE(bytes.empty()) << name;
    EXPECT_EQ(tensorgate::detect_kind(bytes).format, tensorgate::Format::savedmodel) << name;
    const std::string file_name = std::string(name).substr(std::string(name).find('/') + 1);
    const Report r = tgtest::check_detected(file_name, bytes);  // in every split of the input
    EXPECT_TRUE(r.valid) << name << ": " << errors_of(r) << " " << warnings_of(r);
    EXPECT_EQ(warnings_of(r), "") << name;
  }
}

TEST(SavedModel, SummaryOfATf2SavedModel) {
  const Report r = tgtest::check_detected("saved_model.pb", fixture("half_plus_two_tf2/saved_model.pb"));
  const SavedModelSummary& s = summary(r);
  EXPECT_EQ(s.file, "saved_model");
  EXPECT_EQ(s.schema_version, 1u);
  ASSERT_EQ(s.meta_graphs.size(), 1u);
  EXPECT_EQ(s.meta_graphs[0].tags, std::vector<std::string>{"serve"});
  EXPECT_EQ(s.meta_graphs[0].signatures.size(), 7u);
  EXPECT_EQ(s.nodes, 29u);
  EXPECT_EQ(s.functions, 14u);
  EXPECT_EQ(s.function_nodes, 122u);
  EXPECT_TRUE(s.dangerous_ops.empty());
  bool found = false;
  for (const auto& sig : s.meta_graphs[0].signatures) {
    if (sig.key != "serving_default") continue;
    found = true;
    EXPECT_EQ(sig.method_name, "tensorflow/serving/predict");
    ASSERT_FALSE(sig.inputs.empty());
    EXPECT_EQ(sig.inputs[0].dtype, "float32");
  }
  EXPECT_TRUE(found);
}

TEST(SavedModel, KerasMetadataSummary) {
  const Report r = tgtest::check_detected("keras_metadata.pb", fixture("keras_text/keras_metadata.pb"));
  const SavedModelSummary& s = summary(r);
  EXPECT_EQ(s.file, "keras_metadata");
  EXPECT_EQ(s.keras_objects, 1u);
  ASSERT_EQ(s.keras_classes.size(), 1u);
  EXPECT_EQ(s.keras_classes[0].op, "TfTextOps");
}

TEST(SavedModel, FileOpsAnywhereAreDangerous) {
  const Report r = tgtest::check_detected("saved_model.pb", saved_model(node("read", "ReadFile") + node("ok", "AddV2") +
                                                                          library("evil_fn", function_node("call", "PyFunc"))));
  EXPECT_EQ(errors_of(r), "TF.dangerous-op TF.dangerous-op");
  EXPECT_NE(message_of(r, "TF.dangerous-op").find("node \"read\" runs ReadFile"), std::string::npos);
  EXPECT_NE(r.findings[1].message.find("of function \"evil_fn\""), std::string::npos) << r.findings[1].message;
  const SavedModelSummary& s = summary(r);
  ASSERT_EQ(s.dangerous_ops.size(), 2u);
  EXPECT_EQ(s.dangerous_ops[0].op, "ReadFile");
  EXPECT_EQ(s.dangerous_ops[0].nodes, std::vector<std::string>{"node \"read\""});
}

TEST(SavedModel, DebugOpsAndPrintAreDangerousOnlyWithAFileUrl) {
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("d", "DebugIdentityV2", attr("debug_urls", list_value("file:///tmp/dump")))))),
            "TF.dangerous-op");
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("d", "DebugIdentityV3", attr("debug_urls", list_value("grpc://host:1")))))), "");
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("p", "PrintV2", attr("output_stream", string_value("file:///x")))))),
            "TF.dangerous-op");
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("p", "PrintV2", attr("output_stream", string_value("stderr")))))), "");
  // The value before its key (any order is protobuf): a short one is still read.
  const std::string value_first = field_len(5, field_len(2, list_value("file:///tmp")) + field_len(1, "debug_urls"));
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("d", "DebugIdentityV2", value_first)))), "TF.dangerous-op");
  // A long one before its key cannot be judged: the op is taken at its worst.
  const std::string long_first = field_len(5, field_len(2, list_value(std::string(5000, 'a'))) + field_len(1, "debug_urls"));
  const Report r = tgtest::check_detected("m.pb", saved_model(node("d", "DebugIdentityV2", long_first)));
  EXPECT_NE(message_of(r, "TF.dangerous-op").find("could not all be read"), std::string::npos);
}

TEST(SavedModel, ImmutableConstOfAFileIsDangerous) {
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("c", "ImmutableConst", attr("memory_region_name", string_value("/etc/passwd")))))),
            "TF.dangerous-op");
  EXPECT_EQ(errors_of(tgtest::check_detected(
                "m.pb", saved_model(node("c", "ImmutableConst", attr("memory_region_name", string_value("memmapped_package://w")))))),
            "");
}

TEST(SavedModel, CustomOpsWarnUnlessTheLibraryDefinesThem) {
  const Report r = tgtest::check_detected("m.pb", saved_model(node("a", "MyCustomOp") + node("b", "my_fn") + node("c", "_MklFusedConv2D") +
                                                               library("my_fn", function_node("x", "Identity"))));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(warnings_of(r), "TF.custom-op");
  EXPECT_NE(message_of(r, "TF.custom-op").find("\"MyCustomOp\""), std::string::npos);
}

TEST(SavedModel, KerasLambdaAtAnyDepth) {
  EXPECT_EQ(errors_of(tgtest::check_detected("k.pb", keras_metadata("root.layer-1", R"({"class_name": "Lambda", "config": {}})"))),
            "TF.keras-lambda");
  const std::string nested = R"({"class_name": "Functional", "config": {"layers": [{"class_name": "Dense"}, {"class_name": "Lambda"}]}})";
  const Report r = tgtest::check_detected("k.pb", keras_metadata("root", nested));
  EXPECT_EQ(errors_of(r), "TF.keras-lambda");
  EXPECT_NE(message_of(r, "TF.keras-lambda").find("holds a Lambda layer"), std::string::npos);
  EXPECT_EQ(summary(r).keras_classes[0].op, "Functional");
  EXPECT_EQ(errors_of(tgtest::check_detected("k.pb", keras_metadata("root", R"({"class_name": "Dense", "config": {"name": "Lambda"}})"))), "");
  EXPECT_EQ(errors_of(tgtest::check_detected("k.pb", keras_metadata("root", R"({"class_name": "Dense",)"))), "TF.keras-metadata");
}

TEST(SavedModel, MalformedWireFormat) {
  // A varint of 11 bytes as a node's length; a group; nesting past the bound.
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(tag(1, 2) + std::string(10, '\xff') + "\x01"))), "TF.wire");
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(tag(7, 3)))), "TF.wire");
  std::string deep = string_value("x");
  for (int i = 0; i < 60; ++i) deep = field_len(10, field_len(2, field_len(1, "k") + field_len(2, deep)));  // func -> attr -> value
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("n", "PartitionedCall", attr("f", deep))))), "TF.wire");
  // A meta graph that runs past the file.
  EXPECT_EQ(errors_of(tgtest::check_detected("m.pb", saved_model(node("n", "Add")).substr(0, 12))), "TF.wire");
}

TEST(SavedModel, AFieldPastTheKeptBoundAborts) {
  tensorgate::Limits limits;
  limits.savedmodel.max_field_bytes = 64;
  auto v = tensorgate::make_savedmodel_validator(limits);
  const Report r = tensorgate::validate_whole(*v, saved_model(node(std::string(100, 'n'), "Add")));
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "savedmodel-field-bytes");
  EXPECT_FALSE(r.valid);
}

// What grows with the file (op counts and their index, names) is charged to the shared budget: a
// refusal stops the check without a verdict, and every byte is given back with the validator.
TEST(SavedModel, OpsPastTheBudgetAbortWithoutAVerdict) {
  std::string nodes;
  for (int i = 0; i < 3000; ++i) nodes += node("n", "Op" + std::to_string(i) + std::string(400, 'x'));
  tensorgate::CountingBudget budget(1 << 20);
  {
    auto v = tensorgate::make_savedmodel_validator({}, &budget);
    const Report r = tensorgate::validate_whole(*v, saved_model(nodes));
    ASSERT_TRUE(r.aborted);
    EXPECT_EQ(r.aborted->limit, "savedmodel-memory-budget");
    EXPECT_EQ(r.aborted->kind, tensorgate::AbortKind::memory_budget);
    EXPECT_FALSE(r.valid);
    EXPECT_GE(budget.held(), 1u << 20);
  }
  EXPECT_EQ(budget.held(), 0u);
  // With room enough the same file is read whole, its ops listed.
  tensorgate::CountingBudget roomy(64 << 20);
  auto v = tensorgate::make_savedmodel_validator({}, &roomy);
  const Report r = tensorgate::validate_whole(*v, saved_model(nodes));
  EXPECT_FALSE(r.aborted);
  EXPECT_EQ(summary(r).ops.size(), 3000u);
}

TEST(SavedModel, NeitherOnnxNorSavedModelIsTakenForTheOther) {
  EXPECT_EQ(tensorgate::detect_kind(field_varint(1, 8) + field_len(2, "pytorch") + field_len(7, "")).format, tensorgate::Format::onnx);
  EXPECT_EQ(tensorgate::detect_kind(saved_model(node("a", "Add"))).format, tensorgate::Format::savedmodel);
  // An object list whose identifier is not Keras's is not keras_metadata.pb.
  EXPECT_NE(tensorgate::detect_kind(field_len(1, field_len(4, "other") + field_len(5, "{}"))).format, tensorgate::Format::savedmodel);
}

}  // namespace
