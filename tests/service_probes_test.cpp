// The probes at the connection cap (docs/service.md, "Probes at the connection cap"), over real
// loopback sockets: with max_connections held by idle clients, /livez and /readyz still answer 200
// while an upload gets 503 too-many-connections, and idle sockets that send nothing cannot hold
// the probes' reserve, however many come.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "service_support.hpp"

namespace tgservice {
namespace {

using std::chrono::milliseconds;

constexpr int kCap = 4;
constexpr int kReserve = 2;

// A server whose cap is small and whose own deadlines outlast the test: what closes a connection
// here is the reserve, never a header or keep-alive deadline.
ServiceConfig capped_config(milliseconds probe_timeout) {
  ServiceConfig cfg = test_config();
  cfg.max_connections = kCap;
  cfg.probe_connections = kReserve;
  cfg.probe_timeout = probe_timeout;
  cfg.header_timeout = milliseconds(60'000);
  cfg.keepalive_timeout = milliseconds(60'000);
  return cfg;
}

// kCap kept-alive connections, each answered once, so that each was admitted before the next.
std::vector<std::unique_ptr<Client>> fill_the_cap(std::uint16_t port) {
  std::vector<std::unique_ptr<Client>> crowd;
  for (int i = 0; i < kCap; ++i) {
    crowd.push_back(std::make_unique<Client>(port));
    crowd.back()->send(head("GET", "/livez"));
    EXPECT_EQ(crowd.back()->read_response("GET", "/livez").status, 200u);
  }
  return crowd;
}

// True when nothing, not even the end, comes from the server within the client's timeout.
bool still_open(Client& c) { return !c.closed_by_peer(); }

// One request on a connection past the cap, returned once the server has closed it. A reserve
// place is held while its answer is written, and the client can read that answer before the
// server's thread has noted it written; the server half-closes only after, so waiting for the
// end keeps a sequence of probes from overlapping on a loaded machine, where two still being
// answered would fill a reserve of two.
HttpResponse exchange_to_the_end(std::uint16_t port, std::string_view method, std::string_view target,
                                 std::string_view body = {}) {
  Client c(port);
  std::vector<std::string> fields;
  if (method == "POST") fields.push_back("Content-Length: " + std::to_string(body.size()));
  c.send(head(method, target, fields));
  c.send(body);
  HttpResponse r = c.read_response(method, target);
  EXPECT_TRUE(c.closed_by_peer()) << method << " " << target;
  return r;
}

HttpResponse probe(std::uint16_t port, std::string_view target) { return exchange_to_the_end(port, "GET", target); }

// The counter's value once it equals `expected` (or after a bound of polls), each poll being
// itself a reserve exchange seen to its end.
double counter_once_equal(std::uint16_t port, const std::string& series, double expected) {
  double value = -1;
  for (int i = 0; i < 1000 && value != expected; ++i) {
    value = metric(probe(port, "/metrics").body, series);
    if (value != expected) std::this_thread::sleep_for(milliseconds(5));
  }
  return value;
}

TEST(ServiceProbes, LivezAndReadyzAnswerAtTheCapAndAnUploadIsRefused) {
  TestServer s(capped_config(milliseconds(60'000)));
  const auto crowd = fill_the_cap(s.port());
  const HttpResponse live = probe(s.port(), "/livez");
  EXPECT_EQ(live.status, 200u);
  EXPECT_EQ(live.header("connection"), "close");  // one answer per reserve connection
  // Ready at the cap: the cap sheds the excess itself, and a pod taken out of the Service because
  // it is busy would only send its load to replicas as busy (docs/service.md).
  const HttpResponse ready = probe(s.port(), "/readyz");
  EXPECT_EQ(ready.status, 200u);
  EXPECT_EQ(str(ready.json().at("status")), "ready");
  EXPECT_EQ(probe(s.port(), "/metrics").status, 200u);
  const HttpResponse refused = exchange_to_the_end(s.port(), "POST", "/v1/validate", valid_file(256));
  EXPECT_EQ(refused.status, 503u);
  EXPECT_EQ(refused.code(), "too-many-connections");
  EXPECT_EQ(refused.header("retry-after"), "5");
  EXPECT_FALSE(refused.header("x-request-id").empty());
  EXPECT_EQ(refused.header("connection"), "close");
  // The crowd is still served: nothing of the cap was given to the probes.
  crowd.front()->send(head("GET", "/readyz"));
  EXPECT_EQ(crowd.front()->read_response("GET", "/readyz").status, 200u);
}

// A flood of idle connections, scaled down: the cap held, then many more sockets that never send a byte.
// With a reserve deadline of a minute, only eviction can let the probe in.
TEST(ServiceProbes, IdleSocketsCannotExhaustTheReserve) {
  TestServer s(capped_config(milliseconds(60'000)));
  const auto crowd = fill_the_cap(s.port());
  constexpr int kIdle = 12;
  std::vector<std::unique_ptr<Client>> idle;
  for (int i = 0; i < kIdle; ++i) idle.push_back(std::make_unique<Client>(s.port(), 1'000));
  const auto start = std::chrono::steady_clock::now();
  Client prober(s.port());
  prober.send(head("GET", "/livez"));
  const HttpResponse live = prober.read_response("GET", "/livez");
  EXPECT_EQ(live.status, 200u);
  EXPECT_EQ(str(live.json().at("status")), "ok");
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(5'000));
  // The oldest went first: each idle socket past the reserve's two places pushed out the one
  // before it, and the probe pushed out one more. The youngest idle socket is still open.
  for (int i = 0; i <= kIdle - kReserve; ++i) EXPECT_TRUE(idle[i]->closed_by_peer()) << "idle socket " << i;
  EXPECT_TRUE(still_open(*idle.back()));
  EXPECT_TRUE(prober.closed_by_peer());  // one answer per reserve connection
  EXPECT_EQ(counter_once_equal(s.port(), "tensorgate_rejected_connections_total{reason=\"probe-reserve-evicted\"}",
                               kIdle - kReserve + 2),
            kIdle - kReserve + 2);  // the /metrics polls are reserve connections too: one more
  // However often the flood comes back, the probes answer, and uploads do not get in.
  for (int round = 0; round < 3; ++round) {
    std::vector<std::unique_ptr<Client>> more;
    for (int i = 0; i < kIdle; ++i) more.push_back(std::make_unique<Client>(s.port(), 1'000));
    EXPECT_EQ(probe(s.port(), "/readyz").status, 200u) << "round " << round;
    EXPECT_EQ(probe(s.port(), "/livez").status, 200u) << "round " << round;
    const HttpResponse refused = exchange_to_the_end(s.port(), "POST", "/v1/validate", valid_file(256));
    EXPECT_EQ(refused.status, 503u);
    EXPECT_EQ(refused.code(), "too-many-connections");
  }
}

// A reserve connection lives at most probe_timeout: one that sends nothing and one that sends half
// a request and one that asks for an upload are closed by then, with no one arriving to evict them.
TEST(ServiceProbes, AReserveConnectionLivesAtMostTheProbeTimeout) {
  TestServer s(capped_config(milliseconds(300)));
  const auto crowd = fill_the_cap(s.port());
  Client silent(s.port(), 5'000);
  Client half(s.port(), 5'000);
  half.send("GET /livez HTTP/1.1\r\nHost: x\r\n");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(silent.closed_by_peer());
  EXPECT_TRUE(half.closed_by_peer());
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, milliseconds(200));
  EXPECT_LT(waited, milliseconds(3'000));
  // The reserve is free again: a probe answers, the cap's connections are untouched.
  EXPECT_EQ(probe(s.port(), "/livez").status, 200u);
  crowd.back()->send(head("GET", "/livez"));
  EXPECT_EQ(crowd.back()->read_response("GET", "/livez").status, 200u);
}

}  // namespace
}  // namespace tgservice
