// Concurrency and deadlines over real sockets: 64 uploads at once, a slowloris crowd while a
// normal client is served, the connection limit, and clients that stall or trickle.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "service_support.hpp"

namespace tgservice {
namespace {

TEST(ServiceLoad, SixtyFourConcurrentUploads) {
  // All 64 first halves go out before any second half: under a sanitizer on a loaded machine
  // that takes longer than test_config()'s 2 s idle deadline, which this test does not test.
  ServiceConfig cfg = test_config();
  cfg.body_idle_timeout = std::chrono::milliseconds(20'000);
  TestServer s(cfg);
  constexpr int kUploads = 64;
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<std::string> files;
  // Every client sends its header and half its body first, so all 64 are in flight together.
  for (int i = 0; i < kUploads; ++i) {
    files.push_back(valid_file(200'000 + static_cast<std::size_t>(i) * 8));
    clients.push_back(std::make_unique<Client>(s.port(), 30'000));
    const std::string& f = files.back();
    const bool use_chunked = i % 2 == 1;
    const std::string first_half = f.substr(0, f.size() / 2);
    if (use_chunked) {  // the first half as one chunk, without the last-chunk marker
      std::string c = chunked(first_half, {});
      c.resize(c.size() - 5);  // "0\r\n\r\n"
      clients.back()->send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + c);
    } else {
      clients.back()->send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(f.size())}) + first_half);
    }
  }
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < kUploads; ++i) {
    threads.emplace_back([&, i] {
      const std::string& f = files[static_cast<std::size_t>(i)];
      const std::string rest = f.substr(f.size() / 2);
      if (i % 2 == 1) clients[static_cast<std::size_t>(i)]->send(chunked(rest, {}));
      else clients[static_cast<std::size_t>(i)]->send(rest);
      const HttpResponse r = clients[static_cast<std::size_t>(i)]->read_response();
      if (r.status == 200 && str(r.json().as_object().at("sha256")) == sha256_hex(f)) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), kUploads);
}

TEST(ServiceLoad, SlowlorisCrowdDoesNotStopANormalClient) {
  ServiceConfig cfg = test_config();
  cfg.header_timeout = std::chrono::milliseconds(1500);
  TestServer s(cfg);
  constexpr int kCrowd = 200;
  std::vector<std::unique_ptr<Client>> crowd;
  for (int i = 0; i < kCrowd; ++i) {
    crowd.push_back(std::make_unique<Client>(s.port()));
    crowd.back()->send("POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Le");  // never finished
  }
  // While the crowd holds its connections, a normal client is served.
  EXPECT_EQ(get(s.port(), "/livez").status, 200u);
  const std::string file = valid_file(50'000);
  const HttpResponse r = upload(s.port(), file);
  EXPECT_EQ(r.status, 200u);
  // The header deadline then closes every member of the crowd.
  int closed = 0;
  for (auto& c : crowd) closed += c->closed_by_peer() ? 1 : 0;
  EXPECT_EQ(closed, kCrowd);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_timeouts_total{phase=\"header\"}", kCrowd), kCrowd);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"other\",code=\"408\"}", kCrowd), kCrowd);
}

TEST(ServiceLoad, ConnectionsPastTheLimitGet503) {
  ServiceConfig cfg = test_config();
  cfg.max_connections = 20;
  cfg.probe_connections = 0;  // the probes' room is tested in service_bounds_test
  TestServer s(cfg);
  std::vector<std::unique_ptr<Client>> idle;
  for (int i = 0; i < 20; ++i) {
    idle.push_back(std::make_unique<Client>(s.port()));
    idle.back()->send(head("GET", "/livez"));  // make sure each is accepted before the next
    ASSERT_EQ(idle.back()->read_response("GET", "/livez").status, 200u);
  }
  Client extra(s.port());
  const HttpResponse r = extra.read_response();
  EXPECT_EQ(r.status, 503u);
  EXPECT_EQ(r.code(), "too-many-connections");
  EXPECT_EQ(r.header("retry-after"), "5");
  EXPECT_TRUE(extra.closed_by_peer());
  idle.clear();
  // Once the crowd leaves, new connections are served again.
  HttpResponse later;
  for (int i = 0; i < 200 && later.status != 200u; ++i) {
    later = get(s.port(), "/livez");
    if (later.status != 200u) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(later.status, 200u);
}

TEST(ServiceLoad, StalledUploadIsCutByTheIdleDeadline) {
  ServiceConfig cfg = test_config();
  cfg.body_idle_timeout = std::chrono::milliseconds(300);
  TestServer s(cfg);
  const std::string file = valid_file(10'000);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: 10000"}) + file.substr(0, 5000));
  // No more bytes: the server gives up and closes without an answer.
  const HttpResponse r = c.read_response();
  EXPECT_EQ(r.status, 0u);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_timeouts_total{phase=\"body\"}", 1), 1);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_http_requests_total{route=\"/v1/validate\",code=\"408\"}", 1), 1);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_uploads_in_flight", 0), 0);
}

TEST(ServiceLoad, TricklingUploadIsCutByTheMinimumRate) {
  ServiceConfig cfg = test_config();
  cfg.min_body_rate_bytes_per_second = 1'000'000;
  cfg.min_body_rate_window = std::chrono::milliseconds(200);
  TestServer s(cfg);
  const std::string file = valid_file(100'000);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: 100000"}));
  // Each piece arrives well within the idle deadline, but far below the minimum rate.
  bool cut = false;
  for (std::size_t at = 0; at < 2000 && !cut; at += 100) {
    cut = !c.send(file.substr(at, 100));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(cut || c.closed_by_peer());
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_timeouts_total{phase=\"rate\"}", 1), 1);
}

TEST(ServiceLoad, IdleConnectionIsClosedByTheKeepAliveDeadline) {
  ServiceConfig cfg = test_config();
  cfg.keepalive_timeout = std::chrono::milliseconds(200);
  TestServer s(cfg);
  Client c(s.port());
  c.send(head("GET", "/livez"));
  EXPECT_EQ(c.read_response("GET", "/livez").status, 200u);
  EXPECT_TRUE(c.closed_by_peer());
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_timeouts_total{phase=\"idle\"}", 1), 1);
}

TEST(ServiceLoad, AFloodPastTheRejectionCapIsClosedUnanswered) {
  ServiceConfig cfg = test_config();
  cfg.max_connections = 1;
  cfg.max_rejections_in_flight = 0;  // every excess connection is closed at once
  TestServer s(cfg);
  Client held(s.port());
  held.send(head("GET", "/livez"));
  ASSERT_EQ(held.read_response("GET", "/livez").status, 200u);
  Client extra(s.port());
  EXPECT_EQ(extra.read_response().status, 0u);  // no answer at all
  EXPECT_TRUE(extra.closed_by_peer());
}

}  // namespace
}  // namespace tgservice
