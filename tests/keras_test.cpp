// Keras archives (core/src/keras, family KR): a .keras zip's config.json walked as Keras
// deserialises it, through format detection as `tensorgate check model.keras` sees it, in any
// chunks. Archives built with Keras 3's layout (tests/data/keras/make_fixtures.py): a benign
// model passes with its classes counted, a custom layer warns, each hostile config gets its rule.
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "keras/config_walk.hpp"
#include "stream_check.hpp"
#include "tensorgate/model_dir.hpp"
#include "zip_builder.hpp"
#include "tensorgate/zip.hpp"

namespace {

using tensorgate::Report;
using tensorgate::ZipSummary;
using tgtest::check_detected;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) {
  return tgtest::test_data("keras/" + name);
}

const ZipSummary& zip(const Report& r) { return *r.summary.get<ZipSummary>(); }

TEST(Keras, ABenignModelPassesWithItsClassesCounted) {
  const Report r = check_detected("model.keras", fixture("dense.keras"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(warnings_of(r), "");
  ASSERT_TRUE(zip(r).keras);
  EXPECT_EQ(zip(r).keras->model_class, "Sequential");
  EXPECT_EQ(zip(r).keras->custom_objects, 0u);
  std::uint64_t dense = 0;
  for (const auto& c : zip(r).keras->classes)
    if (c.class_name == "Dense" && c.module == "keras.layers") dense = c.count;
  EXPECT_EQ(dense, 2u);
  for (const auto& c : zip(r).keras->classes) EXPECT_EQ(c.verdict, tensorgate::KerasClassVerdict::keras) << c.class_name;
  const Report inline_vocabulary = check_detected("model.keras", fixture("lookup_inline.keras"));
  EXPECT_TRUE(inline_vocabulary.valid) << errors_of(inline_vocabulary);
}

TEST(Keras, ACustomLayerIsAWarning) {
  const Report r = check_detected("model.keras", fixture("custom_layer.keras"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(warnings_of(r), "KR.custom-object");
  EXPECT_NE(message_of(r, "KR.custom-object").find("my_layers"), std::string::npos);
  EXPECT_EQ(zip(r).keras->custom_objects, 1u);
  bool custom = false;
  for (const auto& c : zip(r).keras->classes) custom = custom || (c.module == "my_layers" && c.verdict == tensorgate::KerasClassVerdict::custom);
  EXPECT_TRUE(custom);
}

TEST(Keras, ALambdaLayerAtAnyDepth) {
  for (const char* name : {"lambda.keras", "nested_lambda.keras"}) {
    const Report r = check_detected("model.keras", fixture(name));
    EXPECT_EQ(errors_of(r), "KR.lambda") << name;
    EXPECT_EQ(warnings_of(r), "") << name;
    // The summary says which class it was, for the page's list of what loading runs.
    ASSERT_TRUE(zip(r).keras) << name;
    for (const auto& c : zip(r).keras->classes) {
      const bool bytecode = c.class_name == "Lambda" || c.class_name == "function" || c.class_name == "__lambda__";
      const auto expected = bytecode ? tensorgate::KerasClassVerdict::dangerous : tensorgate::KerasClassVerdict::keras;
      EXPECT_EQ(c.verdict, expected) << name << ": " << c.class_name;
    }
  }
}

TEST(Keras, EachDangerousObjectGetsItsRule) {
  const std::pair<const char*, const char*> cases[] = {
      {"builtins_exec.keras", "builtins.exec"},  {"os_system_module.keras", "os.system"},
      {"tfsm_layer.keras", "TFSMLayer"},         {"torch_wrapper.keras", "TorchModuleWrapper"},
      {"lookup_path.keras", "vocabulary"},       {"unsafe_flag.keras", "enable_unsafe_deserialization"},
      {"get_file.keras", "get_file"},
  };
  for (const auto& [name, says] : cases) {
    const Report r = check_detected("model.keras", fixture(name));
    EXPECT_EQ(errors_of(r), "KR.dangerous-object") << name;
    EXPECT_EQ(warnings_of(r), "") << name;
    EXPECT_NE(message_of(r, "KR.dangerous-object").find(says), std::string::npos) << name << ": " << message_of(r, "KR.dangerous-object");
  }
}

TEST(Keras, AConfigThatIsNotAKerasObject) {
  EXPECT_EQ(errors_of(check_detected("model.keras", fixture("not_json.keras"))), "KR.config");
  EXPECT_EQ(errors_of(check_detected("model.keras", fixture("no_class.keras"))), "KR.config");
}

// The walk alone: nesting past the bound, a document past its end, the unsafe flag split across
// feeds, a key order with config before class_name.
TEST(KerasConfigWalk, BoundsAndOrder) {
  const auto walk = [](std::initializer_list<std::string_view> parts, tensorgate::KerasLimits limits = {}) {
    tensorgate::detail::FindingList findings(64);
    tensorgate::detail::keras::ConfigWalk w(limits, findings, 0, "");
    for (const std::string_view p : parts) w.feed(p);
    w.finish();
    std::string ids;
    for (const auto& f : findings.items()) ids += std::string(tensorgate::rule_info(f.rule).id) + " ";
    return ids;
  };
  tensorgate::KerasLimits shallow;
  shallow.max_depth = 4;
  EXPECT_EQ(walk({R"({"class_name":"M","config":{"a":[[[[1]]]]}})"}, shallow), "KR.config ");
  EXPECT_EQ(walk({R"({"class_name":"M","config":{}} {})"}), "KR.config ");
  EXPECT_EQ(walk({R"({"class_name":"M","config":"enable_unsafe_)", R"(deserialization"})"}), "KR.dangerous-object ");
  EXPECT_EQ(walk({R"({"config":{"name":"l"},"class_name":"Lambda","module":"keras.layers"})"}), "KR.lambda ");
  EXPECT_EQ(walk({R"({"class_name":"M","config":{}})"}), "");
  tensorgate::KerasLimits small;
  small.max_config_bytes = 8;
  EXPECT_EQ(walk({R"({"class_name":"M"})"}, small), "KR.config ");
}

// A Keras directory (a model saved unzipped): its config.json judged as an archive's, its
// classes in the directory's summary, its weights file the model; a transformers config with a
// class name is no Keras config.
TEST(KerasDirectory, TheConfigIsJudgedAndTheWeightsFileMakesTheModel) {
  const auto check = [](std::string config, std::vector<std::string> weights) {
    tensorgate::ModelDirectory md;
    md.config_json = std::move(config);
    md.file_names = {"config.json", "metadata.json"};
    for (std::string& w : weights) {
      md.file_names.push_back(w);
      md.weights.push_back(tensorgate::FileInventory{std::move(w), true, tensorgate::Format::zip, {}, {}});
    }
    return tensorgate::check_model_directory(md);
  };
  const auto ids = [](const tensorgate::DirectoryReport& r) {
    std::string out;
    for (const auto& f : r.findings) out += std::string(tensorgate::rule_info(f.rule).id) + " ";
    return out;
  };
  const std::string dense = R"({"module": "keras", "class_name": "Sequential", "config": {"layers": [)"
                            R"({"module": "keras.layers", "class_name": "Dense", "config": {"units": 2}}]}})";
  const auto benign = check(dense, {"model.weights.npz"});
  EXPECT_TRUE(benign.valid) << ids(benign);
  EXPECT_EQ(ids(benign), "");  // no AR.unknown-architecture: a Keras config names none of the hub's
  ASSERT_TRUE(benign.summary.keras);
  EXPECT_EQ(benign.summary.keras->model_class, "Sequential");
  EXPECT_EQ(benign.summary.files, std::vector<std::string>{"model.weights.npz"});
  const std::string lambda = R"({"class_name": "Sequential", "config": {"layers": [)"
                             R"({"class_name": "Lambda", "config": {"function": ["4wEA", null, null], "function_type": "lambda"}}]}})";
  const auto hostile = check(lambda, {"model.weights.npz"});
  EXPECT_FALSE(hostile.valid);
  EXPECT_EQ(ids(hostile), "KR.lambda ");
  EXPECT_NE(hostile.findings.at(0).message.find("config.json: "), std::string::npos) << hostile.findings.at(0).message;
  EXPECT_EQ(ids(check(dense, {})), "MD.no-weights ");
  const auto transformers = check(R"({"model_type": "llama", "class_name": "X", "config": {}})", {"pytorch_model.bin"});
  EXPECT_FALSE(transformers.summary.keras);
}

// A legacy (Keras 2) config names no module: built-in classes are not custom objects, a class
// registered as package>Name by another package is; a legacy training_config has no top-level
// class_name, and the messages name the attribute the JSON came from.
TEST(KerasConfigWalk, LegacyConfigs) {
  const auto walk = [](std::string_view text, bool top_object = true) {
    tensorgate::detail::FindingList findings(64);
    tensorgate::detail::keras::ConfigWalk w({}, findings, 0, "", "model_config", top_object);
    w.feed(text);
    w.finish();
    std::string ids;
    for (const auto& f : findings.items()) ids += std::string(tensorgate::rule_info(f.rule).id) + " " + f.message + "\n";
    return ids;
  };
  EXPECT_EQ(walk(R"({"class_name":"Sequential","config":{"layers":[{"class_name":"Dense","config":{"name":"d"}}]}})"), "");
  EXPECT_EQ(walk(R"({"class_name":"Sequential","config":{"layers":[{"class_name":"Lambda","config":{"function":["4wAAAA==",null,null],"function_type":"lambda"}}]}})")
                .substr(0, 10),
            "KR.lambda ");
  EXPECT_NE(walk(R"({"class_name":"Sequential","config":{"layers":[{"class_name":"Addons>GELU","config":{}}]}})").find("KR.custom-object"),
            std::string::npos);
  EXPECT_EQ(walk(R"({"class_name":"Sequential","config":{"layers":[{"class_name":"keras>Thing","config":{}}]}})"), "");
  EXPECT_EQ(walk(R"({"loss":"mse","optimizer_config":{"class_name":"Adam","config":{}}})", false), "");
  EXPECT_EQ(walk("{not json"), "KR.config model_config is not JSON: syntax error\n");
}

// A .keras archive's model.weights.h5 must be HDF5: h5py's bytes pass, others warn.
TEST(Keras, AWeightsFileThatIsNoHdf5Warns) {
  const std::string config = R"({"class_name":"Sequential","config":{"layers":[]}})";
  const auto archive = [&](const std::string& weights) {
    return tgtest::build_zip({{"metadata.json", "{}"}, {"config.json", config}, {"model.weights.h5", weights}});
  };
  const Report bad = check_detected("model.keras", archive("not hdf5 at all"));
  EXPECT_TRUE(bad.valid);
  EXPECT_EQ(warnings_of(bad), "KR.weights-file");
  EXPECT_EQ(warnings_of(check_detected("model.keras", archive(std::string("\x89HDF\r\n\x1a\n", 8) + "rest"))), "");
  EXPECT_EQ(warnings_of(check_detected("model.keras", archive(""))), "KR.weights-file");
}

}  // namespace
