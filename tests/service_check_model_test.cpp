// POST /v1/check-model over a real socket: the hub uploads each file to /v1/validate, then sends
// the reports with config.json and the index, and gets the cross-file verdict.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "model_dir_builder.hpp"
#include "service_support.hpp"
#include "tensorgate/safetensors/writer.hpp"

using namespace tgservice;

namespace {

// The file a test model directory would hold, as bytes (single file, F32 zeros).
std::string weights(const std::vector<tgtest::DirTensor>& tensors, const std::map<std::string, std::string>& meta) {
  std::vector<std::string> data;
  data.reserve(tensors.size());
  std::vector<tensorgate::TensorSpec> specs;
  for (const auto& t : tensors) {
    std::uint64_t n = 1;
    for (auto d : t.shape) n *= d;
    data.emplace_back(n * tensorgate::dtype_info(t.dtype).bits / 8, '\0');
    specs.push_back({t.name, t.dtype, t.shape, std::as_bytes(std::span<const char>(data.back()))});
  }
  return tensorgate::write_safetensors(specs, tensorgate::Metadata(meta.begin(), meta.end())).bytes;
}

std::string check_body(const std::string& config, const boost::json::value& report) {
  boost::json::object body{{"config", boost::json::parse(config)}, {"index", nullptr},
                           {"files", {{"model.safetensors", report}}}};
  return boost::json::serialize(body);
}

}  // namespace

TEST(ServiceCheckModel, ValidatedFilesCheckedTogether) {
  TestServer server;
  const tgtest::LlamaShape shape;
  const auto validated = upload(server.port(), weights(tgtest::llama_tensors(shape), {{"format", "pt"}}), "name=model.safetensors");
  ASSERT_EQ(validated.status, 200u);
  const auto res = request(server.port(), "POST", "/v1/check-model", check_body(shape.config_json(), validated.json()),
                           {"Content-Type: application/json"});
  EXPECT_EQ(res.status, 200u) << res.body;
  EXPECT_EQ(str(res.json().at("format")), "model-directory");
  EXPECT_EQ(res.json().at("summary").at("architecture"), "llama");
}

TEST(ServiceCheckModel, ConfigContradictingTheFilesIs422) {
  TestServer server;
  tgtest::LlamaShape shape;
  const auto validated = upload(server.port(), weights(tgtest::llama_tensors(shape), {{"format", "pt"}}));
  ASSERT_EQ(validated.status, 200u);
  shape.hidden = 16;  // the config now implies other shapes
  const auto res = request(server.port(), "POST", "/v1/check-model", check_body(shape.config_json(), validated.json()));
  EXPECT_EQ(res.status, 422u) << res.body;
  EXPECT_EQ(str(res.json().at("findings").at(0).at("rule")).substr(0, 3), "AR.");
}

TEST(ServiceCheckModel, MalformedRequestsAre400) {
  TestServer server;
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", "{\"files\": 3}").code(), "bad-check-model");
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", "not json").code(), "bad-check-model");
  const std::string report_without_inventory = R"({"files": {"model.safetensors": {"valid": true, "summary": {"metadata": {}}}}})";
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", report_without_inventory).code(), "bad-check-model");
  EXPECT_EQ(request(server.port(), "GET", "/v1/check-model").status, 405u);
}

TEST(ServiceCheckModel, BodyAboveTheLimitIs413) {
  ServiceConfig config = test_config();
  config.max_check_model_bytes = 64;
  TestServer server(config);
  const auto res = request(server.port(), "POST", "/v1/check-model", std::string(100, ' '));
  EXPECT_EQ(res.status, 413u);
  EXPECT_EQ(res.code(), "body-too-large");
}
