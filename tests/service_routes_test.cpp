// The small routes over a real socket: health, readiness while draining, metrics, the rule
// catalogue, the OpenAPI document, unknown routes and wrong methods.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "service_support.hpp"

namespace tgservice {
namespace {

TEST(ServiceRoutes, LivezAnswersOk) {
  TestServer s;
  const HttpResponse r = get(s.port(), "/livez");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.body, "{\"status\":\"ok\"}\n");
  EXPECT_FALSE(r.header("x-request-id").empty());
}

TEST(ServiceRoutes, ReadyzIs503WhileDraining) {
  TestServer s;
  EXPECT_EQ(get(s.port(), "/readyz").status, 200u);
  // An upload in flight keeps the drain going, and a kept-alive connection can still ask.
  Client uploader(s.port());
  const std::string file = valid_file(4096);
  uploader.send(head("POST", "/v1/validate", {"Content-Length: 4096"}) + file.substr(0, 100));
  Client asker(s.port());
  asker.send(head("GET", "/livez"));
  ASSERT_EQ(asker.read_response("GET", "/livez").status, 200u);
  // The upload is counted once its header was read; wait for that through the metrics.
  for (int i = 0; i < 500 && metric(get(s.port(), "/metrics").body, "tensorgate_uploads_in_flight") != 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  s.server().begin_drain();
  std::string ready;
  HttpResponse r;
  for (int i = 0; i < 500; ++i) {  // the drain begins on the server's thread
    asker.send(head("GET", "/readyz"));
    r = asker.read_response("GET", "/readyz");
    if (r.status != 200u) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(r.status, 503u);
  EXPECT_EQ(r.body, "{\"status\":\"draining\"}\n");
  EXPECT_EQ(r.header("retry-after"), "5");
  EXPECT_EQ(r.header("connection"), "close");
  uploader.send(file.substr(100));
  EXPECT_EQ(uploader.read_response("POST", "/v1/validate").status, 200u);
}

TEST(ServiceRoutes, MetricsUseThePrometheusTextFormat) {
  TestServer s;
  get(s.port(), "/livez");
  upload(s.port(), valid_file(5000));
  upload(s.port(), invalid_header_file(16));
  get(s.port(), "/nowhere");
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"other\",code=\"404\"}", 1);
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"200\"}", 1);
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"422\"}", 1);
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/livez\",code=\"200\"}", 1);
  const HttpResponse r = get(s.port(), "/metrics");
  ASSERT_EQ(r.status, 200u);
  EXPECT_EQ(r.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const std::string& m = r.body;
  EXPECT_EQ(metric(m, "tensorgate_http_requests_total{route=\"/livez\",code=\"200\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"200\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"422\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_http_requests_total{route=\"other\",code=\"404\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_validations_total{format=\"safetensors\",result=\"valid\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_validations_total{format=\"safetensors\",result=\"invalid\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_findings_total{family=\"ST4\",severity=\"error\"}"), 1);
  // Body sizes: buckets reach hundreds of GB.
  EXPECT_EQ(metric(m, "tensorgate_http_request_body_bytes_bucket{route=\"/v1/validate\",le=\"5e+11\"}"), 2);
  EXPECT_EQ(metric(m, "tensorgate_http_request_body_bytes_bucket{route=\"/v1/validate\",le=\"+Inf\"}"), 2);
  EXPECT_EQ(metric(m, "tensorgate_http_request_body_bytes_bucket{route=\"/v1/validate\",le=\"1000\"}"), 1);
  EXPECT_EQ(metric(m, "tensorgate_body_bytes_received_total"), 5000 + invalid_header_file(16).size());
  EXPECT_EQ(metric(m, "tensorgate_uploads_in_flight"), 0);
  EXPECT_GE(metric(m, "tensorgate_connections_open"), 1);  // this one, and others still closing
  EXPECT_EQ(metric(m, "tensorgate_build_info{version=\"0.1.0\",boost=\"1.81\"}"), 1);
  EXPECT_NE(m.find("# TYPE tensorgate_http_request_duration_seconds histogram"), std::string::npos);
  // Every sample line is `name{labels} value` or `name value` with the tensorgate_ prefix.
  std::istringstream lines(m);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_EQ(line.rfind("tensorgate_", 0), 0u) << line;
  }
}

TEST(ServiceRoutes, RulesListTheCatalogue) {
  TestServer s;
  const HttpResponse r = get(s.port(), "/v1/rules");
  ASSERT_EQ(r.status, 200u);
  const boost::json::value doc = r.json();
  const auto& rules = doc.as_object().at("rules").as_array();
  ASSERT_FALSE(rules.empty());
  bool found = false;
  for (const auto& rule : rules) found = found || rule.as_object().at("id") == "ST1.header-too-large";
  EXPECT_TRUE(found);
}

TEST(ServiceRoutes, OpenApiIsTheDocumentInTheRepository) {
  TestServer s;
  const HttpResponse r = get(s.port(), "/v1/openapi.json");
  ASSERT_EQ(r.status, 200u);
  std::ifstream in(TG_OPENAPI_PATH);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(r.body, text.str());
  EXPECT_EQ(r.json().as_object().at("openapi"), "3.1.0");
}

TEST(ServiceRoutes, UnknownRouteIs404) {
  TestServer s;
  const HttpResponse r = get(s.port(), "/v2/validate");
  EXPECT_EQ(r.status, 404u);
  EXPECT_EQ(r.code(), "not-found");
  EXPECT_EQ(r.header("content-type"), "application/problem+json");
}

TEST(ServiceRoutes, WrongMethodIs405WithAllow) {
  TestServer s;
  HttpResponse r = get(s.port(), "/v1/validate");
  EXPECT_EQ(r.status, 405u);
  EXPECT_EQ(r.code(), "method-not-allowed");
  EXPECT_EQ(r.header("allow"), "POST, PUT");
  r = request(s.port(), "DELETE", "/livez");
  EXPECT_EQ(r.status, 405u);
  EXPECT_EQ(r.header("allow"), "GET, HEAD");
}

TEST(ServiceRoutes, ClientRequestIdIsEchoedWhenPlain) {
  TestServer s;
  HttpResponse r = request(s.port(), "GET", "/livez", {}, {"X-Request-Id: hub-42.a"});
  EXPECT_EQ(r.header("x-request-id"), "hub-42.a");
  r = request(s.port(), "GET", "/livez", {}, {"X-Request-Id: bad id\"}"});
  EXPECT_NE(r.header("x-request-id"), "bad id\"}");
}

TEST(ServiceRoutes, KeepAliveServesSeveralRequestsThenTheLimitCloses) {
  ServiceConfig c = test_config();
  c.keepalive_max_requests = 3;
  TestServer s(c);
  Client client(s.port());
  for (int i = 0; i < 3; ++i) {
    client.send(head("GET", "/livez"));
    const HttpResponse r = client.read_response("GET", "/livez");
    EXPECT_EQ(r.status, 200u);
    EXPECT_EQ(r.header("connection"), i == 2 ? "close" : "");
  }
  EXPECT_TRUE(client.closed_by_peer());
}

TEST(ServiceRoutes, PipelinedRequestsAreAnsweredInOrder) {
  TestServer s;
  Client client(s.port());
  client.send(head("GET", "/livez") + head("GET", "/nope") + head("GET", "/readyz"));
  EXPECT_EQ(client.read_response("GET", "/livez").status, 200u);
  EXPECT_EQ(client.read_response("GET", "/nope").status, 404u);
  EXPECT_EQ(client.read_response("GET", "/readyz").status, 200u);
}

TEST(ServiceRoutes, AccessLogHasOneJsonLinePerRequestWithoutTensorNames) {
  TestServer s;
  get(s.port(), "/livez");
  upload(s.port(), valid_file(2000, "secret.tensor.name"), "name=model.safetensors");
  upload(s.port(), invalid_header_file(8));
  // Each exchange is logged after its answer went out: wait for all three before stopping.
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/livez\",code=\"200\"}", 1);
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"200\"}", 1);
  wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"422\"}", 1);
  s.stop();
  int requests = 0;
  for (const std::string& line : s.log_lines()) {
    EXPECT_EQ(line.find("secret.tensor.name"), std::string::npos) << line;
    if (line.find("\"event\":\"request\"") == std::string::npos) continue;
    if (line.find("\"route\":\"/metrics\"") != std::string::npos) continue;  // the waits
    ++requests;
    const boost::json::value v = HttpResponse{0, {}, line}.json();
    ASSERT_TRUE(v.is_object()) << line;
    for (const char* key : {"ts", "request_id", "route", "status", "body_bytes", "duration_ms"})
      EXPECT_TRUE(v.as_object().contains(key)) << key << " in " << line;
  }
  EXPECT_EQ(requests, 3) << ::testing::PrintToString(s.log_lines());
}

}  // namespace
}  // namespace tgservice
