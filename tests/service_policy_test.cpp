// The service's policy (docs/policy.md, `policy = FILE`): read at start, a bad one stops the
// start with a message; in force it changes /v1/validate's verdicts and every answer that
// judges, and /readyz, names it. Answers are checked against docs/openapi.json.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "test_data.hpp"
#include "options.hpp"
#include "service_support.hpp"
#include "tensorgate/policy.hpp"

using namespace tgservice;

namespace {

std::string fixture(const std::string& path) {
  return tgtest::test_data(path);
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<std::string> rules(const boost::json::value& answer) {
  std::vector<std::string> out;
  for (const auto& f : answer.at("findings").as_array()) out.push_back(str(f.at("rule")));
  return out;
}

const std::string kAllow = R"({"version": 1, "pickle": {"allow": ["estimators.*"]}})";
const std::string kDeny = R"({"version": 1, "pickle": {"deny": ["estimators.*"]}})";

}  // namespace

TEST(ServicePolicy, TheConfigFileNamesIt) {
  const std::string policy = write_file("allow.json", kAllow);
  const std::string ini = write_file("policy.ini", "policy = " + policy + "\n");
  const auto o = tensorgate::service::parse_serve_options({"--config", ini});
  ASSERT_TRUE(o.config.policy);
  EXPECT_EQ(o.config.policy->identity.name, policy);
  EXPECT_EQ(o.config.policy->identity.sha256, sha256_hex(kAllow));
  EXPECT_TRUE(tensorgate::service::parse_serve_options({"--policy", policy}).config.policy);
  EXPECT_FALSE(tensorgate::service::parse_serve_options({}).config.policy);
  EXPECT_NE(tensorgate::service::parse_serve_options({"--help"}).help_text.find("--policy"), std::string::npos);
}

TEST(ServicePolicy, ABadPolicyStopsTheStart) {
  const std::string bad = write_file("bad.json", R"({"version": 1, "pickle": {"allow": ["os.system"]}})");
  try {
    tensorgate::service::parse_serve_options({"--policy", bad});
    FAIL() << "a policy that allows os.system was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("pickle.allow[0] \"os.system\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(tensorgate::service::parse_serve_options({"--policy", ::testing::TempDir() + "/absent.json"}),
               std::runtime_error);
  const std::string typo = write_file("typo.json", R"({"version": 1, "pickles": {}})");
  EXPECT_THROW(tensorgate::service::parse_serve_options({"--policy", typo}), std::runtime_error);
}

TEST(ServicePolicy, APolicyChangesTheVerdict) {
  const std::string joblib = fixture("joblib/estimator.joblib");
  {
    TestServer plain;
    const HttpResponse r = upload(plain.port(), joblib, "name=model.joblib");
    ASSERT_EQ(r.status, 200u) << r.body;
    EXPECT_EQ(rules(r.json()), std::vector<std::string>{"PK.unknown-global"});
    EXPECT_FALSE(r.json().as_object().contains("policy"));
    EXPECT_EQ(get(plain.port(), "/readyz").body, "{\"status\":\"ready\"}\n");
  }
  {
    ServiceConfig c = test_config();
    c.policy = tensorgate::parse_policy(kAllow, "allow.json").policy;
    TestServer allowing(c);
    const HttpResponse r = upload(allowing.port(), joblib, "name=model.joblib");
    ASSERT_EQ(r.status, 200u) << r.body;
    EXPECT_EQ(rules(r.json()), std::vector<std::string>{});
    EXPECT_EQ(str(r.json().at("policy").at("name")), "allow.json");
    EXPECT_EQ(str(r.json().at("policy").at("sha256")), sha256_hex(kAllow));
    const HttpResponse ready = get(allowing.port(), "/readyz");
    EXPECT_EQ(ready.status, 200u);
    EXPECT_EQ(str(ready.json().at("policy").at("sha256")), sha256_hex(kAllow));
  }
  {
    ServiceConfig c = test_config();
    c.policy = tensorgate::parse_policy(kDeny, "deny.json").policy;
    TestServer denying(c);
    const HttpResponse r = upload(denying.port(), joblib, "name=model.joblib");
    EXPECT_EQ(r.status, 422u) << r.body;
    EXPECT_EQ(rules(r.json()), std::vector<std::string>{"PK.policy-denied"});
    const HttpResponse model = request(denying.port(), "POST", "/v1/check-model",
                                       R"({"config": {"architectures": ["LlamaForCausalLM"]}, "index": null, "files": {}})",
                                       {"Content-Type: application/json"});
    ASSERT_TRUE(model.status == 200u || model.status == 422u) << model.body;
    EXPECT_EQ(str(model.json().at("policy").at("name")), "deny.json");
  }
}
