// What an outside attacker found on the service, each over a real socket: budget squatting,
// a header parse past its CPU deadline, an unguarded /v1/check-model, tiny chunks, bounded reports,
// and the HTTP details of RFC 9110/9112 (HEAD, empty lines, Host, 411, Retry-After).
#include <gtest/gtest.h>

#include <thread>

#include "gguf_builder.hpp"
#include "service_support.hpp"
#include "st_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace tgservice {
namespace {

// Eight bytes declaring a 4 MiB header, then silence: the budget must not be charged for what a
// body only announces (sixteen such bodies would have held 64 MiB of a 32 MiB budget).
TEST(ServiceBounds, DeclaredHeadersDoNotSquatTheBudget) {
  ServiceConfig cfg = test_config();
  cfg.header_memory_budget_bytes = 32 << 20;
  TestServer s(cfg);
  const std::string declare = std::string("\x00\x00\x40\x00\x00\x00\x00\x00", 8) + "{\"a\":";  // N = 4 MiB
  std::vector<std::unique_ptr<Client>> squatters;
  for (int i = 0; i < 16; ++i) {
    squatters.push_back(std::make_unique<Client>(s.port()));
    squatters.back()->send(head("POST", "/v1/validate", {"Content-Length: 20000000"}) + declare);
  }
  wait_for_metric(s.port(), "tensorgate_uploads_in_flight", 16);
  const HttpResponse r = upload(s.port(), valid_file(4096));
  EXPECT_EQ(r.status, 200u) << r.body;
  EXPECT_LE(metric(get(s.port(), "/metrics").body, "tensorgate_header_budget_bytes_in_use"), 17.0 * (256 << 10));
}

TEST(ServiceBounds, GgufPastTheBudgetIs503MemoryBudget) {
  ServiceConfig cfg = test_config();
  cfg.header_memory_budget_bytes = 1 << 20;
  TestServer s(cfg);
  tgtest::GgufBuilder g;
  for (int i = 0; i < 40000; ++i) g.kv_u32("key.number." + std::to_string(i), 1);  // ~2 MiB of keys kept
  const HttpResponse r = upload(s.port(), g.build());
  EXPECT_EQ(r.status, 503u) << r.body;
  EXPECT_EQ(r.code(), "memory-budget");
  EXPECT_EQ(r.header("retry-after"), "5");
}

// A large header's parse runs on a worker against max_parse_cpu, on the worker's own CPU clock:
// past it, 413 validation-limit with the limit named, and the server goes on answering.
TEST(ServiceBounds, AHeaderParsePastItsCpuDeadlineIs413) {
  ServiceConfig cfg = test_config();
  cfg.max_parse_cpu = std::chrono::milliseconds(1);
  TestServer s(cfg);
  std::string meta = "{\"__metadata__\":{";
  for (int i = 0; i < 200'000; ++i) meta += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v\"";
  meta += "},\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
  const std::string file = tgtest::st_file(meta, "x");  // 3.3 MB: a worker's parse, ~100 ms of CPU
  const HttpResponse r = upload(s.port(), file);
  EXPECT_EQ(r.status, 413u) << r.body;
  EXPECT_EQ(r.code(), "validation-limit");
  EXPECT_EQ(r.json().as_object().at("limit").as_string(), "parse-cpu-deadline");
  EXPECT_EQ(r.header("retry-after"), "");
  EXPECT_EQ(get(s.port(), "/livez").status, 200u);

  cfg.max_parse_cpu = std::chrono::milliseconds(0);  // off
  TestServer off(cfg);
  EXPECT_EQ(upload(off.port(), file).status, 200u);
}

TEST(ServiceBounds, CheckModelTakesAnUploadSlot) {
  ServiceConfig cfg = test_config();
  cfg.max_concurrent_uploads = 1;
  TestServer s(cfg);
  Client holder(s.port());
  holder.send(head("POST", "/v1/validate", {"Content-Length: 4096"}) + valid_file(4096).substr(0, 100));
  wait_for_metric(s.port(), "tensorgate_uploads_in_flight", 1);
  const HttpResponse r = request(s.port(), "POST", "/v1/check-model", "{\"files\": {}}");
  EXPECT_EQ(r.status, 503u);
  EXPECT_EQ(r.code(), "over-capacity");
}

TEST(ServiceBounds, CheckModelDocumentIsChargedToTheBudget) {
  ServiceConfig cfg = test_config();
  cfg.header_memory_budget_bytes = 8 << 20;
  TestServer s(cfg);
  // 2 MB of text whose DOM takes ~25x that: past the budget.
  std::string body = "{\"files\": {}, \"other_files\": [0";
  while (body.size() < (2 << 20)) body += ",0";
  body += "]}";
  const HttpResponse r = request(s.port(), "POST", "/v1/check-model", body);
  EXPECT_EQ(r.status, 503u) << r.body.substr(0, 200);
  EXPECT_EQ(r.code(), "memory-budget");
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_header_budget_bytes_in_use", 0), 0);
  EXPECT_EQ(request(s.port(), "POST", "/v1/check-model", "{\"files\": {}}").status, 422u);  // and it recovers
}

TEST(ServiceBounds, TinyChunksAre400) {
  ServiceConfig cfg = test_config();
  cfg.free_chunks = 16;
  cfg.min_average_chunk_bytes = 256;
  TestServer s(cfg);
  const std::string file = valid_file(8192);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunked(file, std::vector<std::size_t>(2000, 1)));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 400u);
  EXPECT_EQ(r.code(), "bad-request");
  // Chunks of a normal size pass.
  Client ok(s.port());
  ok.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunked(file, std::vector<std::size_t>(30, 256)));
  EXPECT_EQ(ok.read_response("POST", "/v1/validate").status, 200u);
}

TEST(ServiceBounds, TheFixedRejectionHasARequestId) {
  ServiceConfig cfg = test_config();
  cfg.max_connections = 1;
  cfg.probe_connections = 0;
  TestServer s(cfg);
  Client first(s.port());
  first.send(head("GET", "/livez"));
  ASSERT_EQ(first.read_response("GET", "/livez").status, 200u);
  Client extra(s.port());
  const HttpResponse r = extra.read_response();
  EXPECT_EQ(r.status, 503u);
  EXPECT_FALSE(r.header("x-request-id").empty());
  EXPECT_EQ(str(r.json().at("request_id")), r.header("x-request-id"));
}

TEST(ServiceBounds, ReportsCapTheInventoryAndCutLongValues) {
  ServiceConfig cfg = test_config();
  cfg.max_report_tensors = 2;
  TestServer s(cfg);
  std::string h = "{\"__metadata__\":{\"pad\":\"" + std::string(10000, 'x') + "\"}";
  for (int i = 0; i < 5; ++i)
    h += ",\"t" + std::to_string(i) + "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[" + std::to_string(i) + "," + std::to_string(i + 1) + "]}";
  h += "}";
  const std::string file = tgtest::st_file(h, std::string(5, '\0'));
  const HttpResponse r = upload(s.port(), file, "tensors=false");
  ASSERT_EQ(r.status, 200u) << r.body.substr(0, 300);
  const boost::json::value doc = r.json();  // json() parses anew: keep the value
  const auto& summary = doc.at("summary").as_object();
  EXPECT_EQ(summary.at("metadata").at("pad").as_string().size(), 4096u);
  EXPECT_LT(r.body.size(), 8000u);  // tensors=false: nothing of 10,000 bytes is echoed
  const auto& cut = summary.at("truncated").at("strings").at(0).as_object();
  EXPECT_EQ(cut.at("field"), "metadata value");
  EXPECT_EQ(cut.at("bytes").to_number<std::uint64_t>(), 10000u);
  EXPECT_EQ(str(cut.at("sha256")), sha256_hex(std::string(10000, 'x')));
  const boost::json::value all = upload(s.port(), file).json();
  EXPECT_EQ(all.at("summary").at("tensors").as_array().size(), 2u);
  EXPECT_EQ(all.at("summary").at("truncated").at("tensors_omitted").to_number<std::uint64_t>(), 3u);
}

TEST(ServiceBounds, HeadAnswersLikeGetWithoutABody) {
  TestServer s;
  const HttpResponse g = get(s.port(), "/livez");
  Client c(s.port());
  c.send(head("HEAD", "/livez") + head("GET", "/livez"));
  const HttpResponse h = c.read_response("HEAD", "/livez");
  // A HEAD answer has no body: the next bytes are the GET's answer.
  EXPECT_EQ(h.status, 200u);
  EXPECT_EQ(h.header("content-length"), std::to_string(g.body.size()));
  EXPECT_EQ(c.read_response("GET", "/livez").body, g.body);
  EXPECT_EQ(request(s.port(), "HEAD", "/v1/validate").status, 405u);
}

TEST(ServiceBounds, EmptyLinesBeforeTheRequestLineAreIgnored) {
  TestServer s;
  Client c(s.port());
  c.send("\r\n" + head("GET", "/livez"));
  EXPECT_EQ(c.read_response("GET", "/livez").status, 200u);
  Client many(s.port());
  many.send(std::string(40, '\n') + head("GET", "/livez"));  // past the bound: not a request
  EXPECT_EQ(many.read_response().status, 400u);
}

TEST(ServiceBounds, HostMustBeOneHost) {
  TestServer s;
  for (const std::string host : {"a, b", "a b"}) {
    Client c(s.port());
    c.send("GET /livez HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    const HttpResponse r = c.read_response("GET", "/livez");
    EXPECT_EQ(r.status, 400u) << host;
    EXPECT_EQ(r.code(), "missing-host") << host;
  }
  Client ok(s.port());
  ok.send("GET /livez HTTP/1.1\r\nHost: example.org:8080\r\n\r\n");
  EXPECT_EQ(ok.read_response("GET", "/livez").status, 200u);
}

TEST(ServiceBounds, LengthRequiredClosesTheConnection) {
  TestServer s;
  Client c(s.port());
  // What follows the header is an unframed body: it must never be read as a request.
  c.send("POST /v1/validate HTTP/1.1\r\nHost: x\r\n\r\nGET /livez HTTP/1.1\r\nHost: x\r\n\r\n");
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 411u);
  EXPECT_EQ(r.header("connection"), "close");
  EXPECT_TRUE(c.closed_by_peer());
}

TEST(ServiceBounds, SlowBodyIsAnswered408) {
  ServiceConfig cfg = test_config();
  cfg.min_body_rate_bytes_per_second = 1'000'000;
  cfg.min_body_rate_window = std::chrono::milliseconds(200);
  TestServer s(cfg);
  const std::string file = valid_file(100'000);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: 100000"}) + file.substr(0, 100));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  c.send(file.substr(100, 100));  // the read after the window ends finds the rate too low
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 408u);
  EXPECT_EQ(r.code(), "request-timeout");
}

}  // namespace
}  // namespace tgservice
