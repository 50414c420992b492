#pragma once
// Helpers for the service tests: an in-process server on an ephemeral loopback port, a blocking
// client over a real socket (every receive has a timeout, so a broken server fails a test instead
// of hanging it), safetensors bodies, and the check of every answer against docs/openapi.json.
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/service/config.hpp"
#include "tensorgate/service/server.hpp"

namespace tgservice {

using tensorgate::service::ServiceConfig;

// Timeouts short enough for tests that wait for them, long enough for ASan builds.
ServiceConfig test_config();

class TestServer {
 public:
  explicit TestServer(const ServiceConfig& config = test_config());
  ~TestServer();
  std::uint16_t port() const { return server_->port(); }
  tensorgate::service::Server& server() { return *server_; }
  // The access-log lines so far (the log is asynchronous: call after stop() for all of them).
  std::vector<std::string> log_lines() const;
  void stop();

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
  std::unique_ptr<tensorgate::service::Server> server_;
};

struct HttpResponse {
  unsigned status = 0;  // 0: no response (closed or timed out)
  std::map<std::string, std::string> headers;  // names lowercased
  std::string body;
  std::string header(const std::string& name) const;
  boost::json::value json() const;  // the body parsed; null when it is not JSON
  std::string code() const;         // the problem `code`, or ""
};

class Client {
 public:
  explicit Client(std::uint16_t port, int receive_timeout_ms = 10'000);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  bool send(std::string_view bytes);  // false when the peer has closed or reset
  void shutdown_send();
  // One response (status 0 when none came). Checked against the OpenAPI description when
  // `method` and `target` are given.
  HttpResponse read_response(std::string_view method = {}, std::string_view target = {});
  // True once the server has closed the connection (EOF or reset) within the timeout; bytes that
  // arrive first are discarded.
  bool closed_by_peer();
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::string pending_;  // received bytes not yet parsed
};

// Sends one request with a Content-Length body and reads the answer, checked against the
// OpenAPI description.
HttpResponse request(std::uint16_t port, std::string_view method, std::string_view target,
                     std::string_view body = {}, const std::vector<std::string>& headers = {});
HttpResponse get(std::uint16_t port, std::string_view target);
HttpResponse upload(std::uint16_t port, std::string_view body, std::string_view query = {});

// The request head (request line, Host, extra fields, blank line).
std::string head(std::string_view method, std::string_view target,
                 const std::vector<std::string>& fields = {});
// A chunked encoding of `body` cut into pieces of the given sizes (the rest in one chunk).
std::string chunked(std::string_view body, const std::vector<std::size_t>& sizes);

// A valid safetensors file of `total` bytes (one U8 tensor covering the data), with tensor name.
std::string valid_file(std::size_t total, std::string_view tensor = "weights");
// A file whose header is already invalid (bad dtype) and whose data section is `data` bytes.
std::string invalid_header_file(std::size_t data);
std::string sha256_hex(std::string_view bytes);

// Empty when `body` (with its content type) matches what docs/openapi.json says for this
// method, path and status; otherwise what does not match.
std::string openapi_mismatch(std::string_view method, std::string_view target, unsigned status,
                             std::string_view content_type, std::string_view body);

// A JSON string's text, or "<not a string>".
std::string str(const boost::json::value& v);

// The value of an unlabelled or labelled sample in /metrics text, or -1.
double metric(const std::string& metrics_text, const std::string& series);
// Polls /metrics until `series` has `expected` (the server counts an exchange after its last
// byte went out, so a client can see the end first); returns the last value seen.
double wait_for_metric(std::uint16_t port, const std::string& series, double expected);

}  // namespace tgservice
