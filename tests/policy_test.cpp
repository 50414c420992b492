// A team's policy file (docs/policy.md; core/src/policy): what the parser refuses and why, how
// patterns match, and how each judge follows the policy: pickle globals (alone, in a joblib file,
// in a zip's pickle), Keras modules, ONNX domains; the report names the policy.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "test_data.hpp"
#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/policy.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/sha256.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"
#include "zip_builder.hpp"

namespace {

using tensorgate::Limits;
using tensorgate::NamePatterns;
using tensorgate::parse_policy;
using tensorgate::Policy;
using tensorgate::PolicyLimits;
using tensorgate::Report;
using tgtest::check_detected;
using tgtest::check_pickle;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::PickleBuilder;
using tgtest::warnings_of;

std::shared_ptr<const Policy> policy(std::string_view text) {
  tensorgate::PolicyParse p = parse_policy(text, "policy.json");
  EXPECT_TRUE(p.policy) << p.error;
  return p.policy;
}

// The parser's error for `text`, "" when it parses.
std::string refusal(std::string_view text, const PolicyLimits& limits = {}) {
  tensorgate::PolicyParse p = parse_policy(text, "policy.json", limits);
  EXPECT_EQ(p.policy == nullptr, !p.error.empty());
  return p.error;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

Limits with(std::shared_ptr<const Policy> p) {
  Limits l;
  l.policy = std::move(p);
  return l;
}

std::string fixture(const std::string& path) {
  return tgtest::test_data(path);
}

std::string single_global(std::string_view module, std::string_view name) {
  return PickleBuilder().proto(4).str(module).str(name).stack_global().stop().bytes();
}

const tensorgate::PickleGlobal* global_named(const Report& r, std::string_view module) {
  for (const auto& g : r.summary.get<tensorgate::PickleSummary>()->globals)
    if (g.module == module) return &g;
  return nullptr;
}

const std::string kSklearn = R"({"version": 1, "pickle": {"allow": ["sklearn.*"], "deny": ["mypkg.evil"]}})";

TEST(PolicyParse, AGoodPolicyParsesWithItsDigest) {
  const std::string text = R"({"version": 1, "comment": "tabular models",
    "pickle": {"allow": ["sklearn.*", "numpy.core.multiarray._reconstruct"], "deny": ["mypkg.evil", "badlib.*"]},
    "keras": {"allow_modules": ["my_layers"], "deny_modules": ["their_layers.*"]},
    "onnx": {"allow_domains": ["com.microsoft.*", "ai.onnx.contrib"], "deny_domains": ["com.evil-corp"]}})";
  const auto p = policy(text);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->identity.name, "policy.json");
  EXPECT_EQ(p->identity.sha256, tensorgate::Sha256::hex_of(text.data(), text.size()));
  EXPECT_EQ(p->pickle_allow.size(), 2u);
  EXPECT_EQ(p->pickle_deny.size(), 2u);
  EXPECT_TRUE(p->keras_allow.match("my_layers"));
  EXPECT_TRUE(p->onnx_deny.match("com.evil-corp"));
  EXPECT_TRUE(policy(R"({"version": 1})"));  // nothing allowed or denied: the built-in lists alone
}

TEST(PolicyParse, TheSampleParses) {
  std::ifstream in(std::string(TG_SOURCE_DIR) + "/samples/policy-sklearn.json", std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  const auto p = policy(s.str());
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->pickle_allow.match("sklearn.ensemble._forest.RandomForestClassifier"));
}

TEST(PolicyParse, PatternsMatchWholeComponents) {
  const NamePatterns p({"sklearn.*", "numpy.core.multiarray._reconstruct", "a.b.*"});
  EXPECT_EQ(*p.match("sklearn.linear_model._base.LinearRegression"), "sklearn.*");
  EXPECT_EQ(*p.match("sklearn"), "sklearn.*");
  EXPECT_FALSE(p.match("sklearnx.Thing"));
  EXPECT_FALSE(p.match("sklearnx"));
  EXPECT_FALSE(p.match("xsklearn.Thing"));
  EXPECT_EQ(*p.match("numpy.core.multiarray._reconstruct"), "numpy.core.multiarray._reconstruct");
  EXPECT_FALSE(p.match("numpy.core.multiarray._reconstructed"));
  EXPECT_FALSE(p.match("numpy.core.multiarray"));
  EXPECT_EQ(*p.match("a.b.c"), "a.b.*");
  EXPECT_FALSE(p.match("a.bc"));
  EXPECT_FALSE(p.match("a"));
  EXPECT_FALSE(NamePatterns().match("anything"));
}

TEST(PolicyParse, UnknownKeysAreRefusedByName) {
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickles": {}})"), "unknown key \"pickles\""));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"allow_modules": []}})"),
                       "pickle: unknown key \"allow_modules\" (the keys are allow and deny)"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "keras": {"allow": []}})"), "keras: unknown key \"allow\""));
}

TEST(PolicyParse, TheShapeIsChecked) {
  EXPECT_TRUE(contains(refusal(R"({"pickle": {}})"), "no version"));
  EXPECT_TRUE(contains(refusal(R"({"version": 2})"), "version must be 1"));
  EXPECT_TRUE(contains(refusal(R"({"version": "1"})"), "version must be 1"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "comment": 3})"), "comment must be a string"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": []})"), "pickle must be an object"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"allow": "sklearn.*"}})"), "pickle.allow must be an array"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"allow": [1]}})"), "pickle.allow[0] must be a string"));
  EXPECT_TRUE(contains(refusal(R"([1])"), "not a JSON object"));
  EXPECT_TRUE(contains(refusal("{\"version\": 1,\n  \"pickle\": {\"allow\": [\"a.b\",]}}"), "line 2, column "));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "version": 1})"), "duplicate key"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"allow": ["a.b"], "deny": ["a.b"]}})"),
                       "\"a.b\" is both allowed and denied"));
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"deny": ["a.b", "a.b"]}})"), "pickle.deny[1] \"a.b\" is listed twice"));
}

TEST(PolicyParse, BadPatternsAreRefused) {
  const auto pickle_allow = [](std::string_view p) {
    return refusal(R"({"version": 1, "pickle": {"allow": [")" + std::string(p) + R"("]}})");
  };
  for (const char* bad : {"", "*", ".*", "sklearn*", "sklearn.*.x", "a..b", "1abc.x", "a.b-c", "a.b.", ".a.b", "a b.c"})
    EXPECT_TRUE(contains(pickle_allow(bad), "pickle.allow[0]")) << bad;
  EXPECT_TRUE(contains(pickle_allow("sklearn"), "names a module, not a global"));
  // A Keras module may be one component; an ONNX domain may have dashes.
  EXPECT_EQ(refusal(R"({"version": 1, "keras": {"allow_modules": ["my_layers"]}})"), "");
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "keras": {"deny_modules": ["my-layers"]}})"), "not a Python identifier"));
  EXPECT_EQ(refusal(R"({"version": 1, "onnx": {"deny_domains": ["com.evil-corp.*"]}})"), "");
  PolicyLimits small;
  small.max_pattern_bytes = 8;
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"deny": ["abcd.efghij"]}})", small), "longer than 8 bytes"));
}

TEST(PolicyParse, BoundsAreLimits) {
  PolicyLimits few;
  few.max_entries = 2;
  EXPECT_EQ(refusal(R"({"version": 1, "pickle": {"allow": ["a.b"], "deny": ["c.d"]}})", few), "");
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {"allow": ["a.b"], "deny": ["c.d"]}, "onnx": {"deny_domains": ["x"]}})", few),
                       "more than 2 patterns"));
  PolicyLimits tiny;
  tiny.max_bytes = 16;
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "pickle": {}})", tiny), "larger than 16 bytes"));
  EXPECT_FALSE(refusal(R"({"version": 1, "comment": [[[[[[[[[[]]]]]]]]]]})").empty());  // deeper than max_depth
}

TEST(PolicyParse, AnAllowanceTheBuiltInListsDenyIsRefused) {
  for (const char* denied : {"os.system", "builtins.exec", "__builtin__.eval", "os.*", "subprocess.*", "os.path.*",
                             "mypkg.__reduce__", "torch.load", "mypkg.sub.system", "tempfile._os.*"}) {
    const std::string e = refusal(R"({"version": 1, "pickle": {"allow": [")" + std::string(denied) + R"("]}})");
    EXPECT_TRUE(contains(e, "a policy cannot allow it")) << denied << ": " << e;
  }
  EXPECT_TRUE(contains(refusal(R"({"version": 1, "keras": {"allow_modules": ["subprocess"]}})"), "a policy cannot allow it"));
  // Denying them is no contradiction, and a subtree that merely holds denied names is allowed:
  // those names stay denied (below).
  EXPECT_EQ(refusal(R"({"version": 1, "pickle": {"deny": ["os.system"], "allow": ["numpy.*"]}})"), "");
}

TEST(PolicyJudge, AnAllowedGlobalIsNoLongerAWarning) {
  const std::string pkl = single_global("sklearn.linear_model._base", "LinearRegression");
  const Report bare = check_pickle(pkl);
  EXPECT_TRUE(bare.valid);
  EXPECT_EQ(warnings_of(bare), "PK.unknown-global");
  const Report allowed = check_pickle(pkl, with(policy(kSklearn)));
  EXPECT_TRUE(allowed.valid);
  EXPECT_EQ(warnings_of(allowed) + errors_of(allowed), "");
  const auto* g = global_named(allowed, "sklearn.linear_model._base");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->verdict, tensorgate::GlobalVerdict::allowed);
  EXPECT_EQ(g->reason, "allowed by the policy (sklearn.*)");
  // sklearn.* is no prefix of sklearnx.
  EXPECT_EQ(warnings_of(check_pickle(single_global("sklearnx", "Thing"), with(policy(kSklearn)))), "PK.unknown-global");
}

TEST(PolicyJudge, ADeniedGlobalIsAnError) {
  const Report r = check_pickle(single_global("mypkg", "evil"), with(policy(kSklearn)));
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(errors_of(r), "PK.policy-denied");
  EXPECT_TRUE(contains(message_of(r, "PK.policy-denied"), "denied by the policy (mypkg.evil)"));
  // A policy narrows the built-in allow-list too.
  const auto narrow = policy(R"({"version": 1, "pickle": {"deny": ["collections.OrderedDict"]}})");
  EXPECT_EQ(errors_of(check_pickle(single_global("collections", "OrderedDict"))), "");
  EXPECT_EQ(errors_of(check_pickle(single_global("collections", "OrderedDict"), with(narrow))), "PK.policy-denied");
}

TEST(PolicyJudge, NoAllowanceReachesPastABuiltInDenial) {
  // Built by hand, as the parser would refuse them: the judge holds the line on its own.
  auto p = std::make_shared<Policy>();
  p->pickle_allow = NamePatterns({"os.*", "sklearn.*", "numpy.*"});
  const Limits l = with(p);
  EXPECT_EQ(errors_of(check_pickle(single_global("os", "system"), l)), "PK.dangerous-global");
  EXPECT_EQ(errors_of(check_pickle(single_global("sklearn.utils", "a.b"), l)), "PK.dangerous-global");  // an attribute walk
  EXPECT_EQ(errors_of(check_pickle(single_global("sklearn.utils", "load"), l)), "PK.dangerous-global");  // a denied leaf
  EXPECT_EQ(errors_of(check_pickle(single_global("numpy", "load"), l)), "PK.dangerous-global");
  EXPECT_EQ(errors_of(check_pickle(single_global("sklearn._os", "thing"), l)), "PK.dangerous-global");  // an alias
}

TEST(PolicyJudge, JoblibAndZippedPicklesFollowThePolicy) {
  const std::string joblib = fixture("joblib/estimator.joblib");
  EXPECT_EQ(warnings_of(check_detected("model.joblib", joblib)), "PK.unknown-global");
  const auto allow = policy(R"({"version": 1, "pickle": {"allow": ["estimators.*"]}})");
  const Report allowed = check_detected("model.joblib", joblib, with(allow));
  EXPECT_TRUE(allowed.valid);
  EXPECT_EQ(warnings_of(allowed) + errors_of(allowed), "");
  const auto deny = policy(R"({"version": 1, "pickle": {"deny": ["estimators.*"]}})");
  EXPECT_EQ(errors_of(check_detected("model.joblib", joblib, with(deny))), "PK.policy-denied");

  const std::string zip = tgtest::build_zip({{"archive/data.pkl", single_global("sklearn.tree", "DecisionTreeClassifier")}});
  EXPECT_EQ(warnings_of(check_detected("model.pt", zip)), "PK.unknown-global");
  EXPECT_EQ(warnings_of(check_detected("model.pt", zip, with(policy(kSklearn)))), "");
  const auto deny_tree = policy(R"({"version": 1, "pickle": {"deny": ["sklearn.tree.*"]}})");
  EXPECT_EQ(errors_of(check_detected("model.pt", zip, with(deny_tree))), "PK.policy-denied");
}

TEST(PolicyJudge, KerasModules) {
  const std::string keras = fixture("keras/custom_layer.keras");
  EXPECT_EQ(warnings_of(check_detected("model.keras", keras)), "KR.custom-object");
  const Report allowed =
      check_detected("model.keras", keras, with(policy(R"({"version": 1, "keras": {"allow_modules": ["my_layers"]}})")));
  EXPECT_TRUE(allowed.valid);
  EXPECT_EQ(warnings_of(allowed) + errors_of(allowed), "");
  const Report denied =
      check_detected("model.keras", keras, with(policy(R"({"version": 1, "keras": {"deny_modules": ["my_layers.*"]}})")));
  EXPECT_FALSE(denied.valid);
  EXPECT_EQ(errors_of(denied), "KR.policy-denied");
  EXPECT_EQ(warnings_of(denied), "");
  EXPECT_TRUE(contains(message_of(denied, "KR.policy-denied"), "denied by the policy (my_layers.*)"));
  // The pickle section is no Keras allowance.
  EXPECT_EQ(warnings_of(check_detected("model.keras", keras, with(policy(R"({"version": 1, "pickle": {"allow": ["my_layers.*"]}})")))),
            "KR.custom-object");
  // A built-in denial stays one whatever the policy allows.
  auto p = std::make_shared<Policy>();
  p->keras_allow = NamePatterns({"os"});
  EXPECT_EQ(errors_of(check_detected("model.keras", fixture("keras/os_system_module.keras"), with(p))), "KR.dangerous-object");
}

namespace wire = tgtest::wire;

std::string onnx_model(std::string_view domain) {
  const std::string node = wire::field_len(1, wire::field_len(4, "Mystery") + wire::field_len(7, domain)) +
                           wire::field_len(1, wire::field_len(4, "Add"));
  return wire::field_varint(1, 8) + wire::field_len(8, wire::field_varint(2, 13)) + wire::field_len(7, node);
}

std::string onnx_rules(std::string_view bytes, const Limits& limits = {}) {
  auto v = tensorgate::make_onnx_validator(limits);
  const Report r = tensorgate::validate_whole(*v, bytes);
  return errors_of(r) + "|" + warnings_of(r);
}

TEST(PolicyJudge, OnnxDomains) {
  const std::string custom = onnx_model("com.example");
  EXPECT_EQ(onnx_rules(custom), "|OX.custom-domain");
  EXPECT_EQ(onnx_rules(custom, with(policy(R"({"version": 1, "onnx": {"allow_domains": ["com.example"]}})"))), "|");
  EXPECT_EQ(onnx_rules(custom, with(policy(R"({"version": 1, "onnx": {"allow_domains": ["com.*"]}})"))), "|");
  EXPECT_EQ(onnx_rules(custom, with(policy(R"({"version": 1, "onnx": {"deny_domains": ["com.example"]}})"))),
            "OX.policy-denied|");
  // Standard domains may be denied too ("" is ai.onnx); com.microsoft is no custom domain.
  const auto deny_standard = policy(R"({"version": 1, "onnx": {"deny_domains": ["ai.onnx", "com.microsoft"]}})");
  EXPECT_EQ(onnx_rules(onnx_model("com.microsoft"), with(deny_standard)), "OX.policy-denied OX.policy-denied|");
  EXPECT_EQ(onnx_rules(onnx_model("com.microsoft")), "|");
  // Past the domains remembered, a denied one is still reported: other domains cannot hide it.
  std::string nodes;
  for (const char* d : {"a.one", "a.two", "a.three", "com.evil"})
    nodes += wire::field_len(1, wire::field_len(4, "Op") + wire::field_len(7, d));
  const std::string many = wire::field_varint(1, 8) + wire::field_len(8, wire::field_varint(2, 13)) + wire::field_len(7, nodes);
  Limits few = with(policy(R"({"version": 1, "onnx": {"deny_domains": ["com.evil"]}})"));
  few.onnx.max_listed_ops = 2;
  EXPECT_EQ(onnx_rules(many, few), "OX.policy-denied|OX.custom-domain OX.custom-domain");
}

TEST(PolicyReport, TheReportNamesThePolicy) {
  const auto p = policy(kSklearn);
  std::vector<tensorgate::CheckedFile> files;
  files.push_back(tensorgate::CheckedFile{"m.pkl", check_pickle(single_global("sklearn.svm", "SVC"), with(p)), std::nullopt});
  const auto write = [&](const tensorgate::ReportOptions& o, auto writer) {
    std::string out;
    writer(files, o, [&out](std::string_view s) { out.append(s); });
    return out;
  };
  tensorgate::ReportOptions options;
  EXPECT_FALSE(contains(write(options, tensorgate::write_json_report), "\"policy\""));
  EXPECT_FALSE(contains(write(options, tensorgate::write_text_report), "policy"));
  options.policy = p->identity;
  const std::string json = write(options, tensorgate::write_json_report);
  EXPECT_TRUE(contains(json, "\"policy\":{\"name\":\"policy.json\",\"sha256\":\"" + p->identity.sha256 + "\"}")) << json;
  EXPECT_TRUE(contains(write(options, tensorgate::write_sarif_report), "\"properties\":{\"policy\":{\"name\":\"policy.json\""));
  EXPECT_TRUE(contains(write(options, tensorgate::write_text_report), "policy policy.json (sha256 " + p->identity.sha256 + ")"));
}

}  // namespace
