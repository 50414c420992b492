#pragma once
// GET with what a careful client owes a server and its user: redirects followed up to a bound
// (never from https to http), 429 and 5xx retried with backoff as Retry-After says, the user's
// headers sent only to the origin they were given for, one kept-alive connection reused, and
// every failure one clear line. One client per worker thread.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "connection.hpp"
#include "remote_options.hpp"

namespace tensorgate::remote {

struct GetRequest {
  Url url;
  // The origin the user's headers belong to (the URL the user gave): sent there only.
  std::string credentials_origin;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> range;   // first and last byte
  std::vector<std::pair<std::string, std::string>> conditions;    // If-Match, If-Range, ...
  bool missing_ok = false;  // 404 and 410 are answers (a repository's optional file), not failures
};

// A response whose head has been read: 2xx, 412 or 416 (the caller decides what they mean);
// everything else is a failure of open(). The body is read with read_body(), then ended with
// finish() or abandoned with close().
struct OpenResponse {
  ResponseHead head;
  Url url;                 // after redirects
  unsigned redirects = 0;
};

class HttpClient {
 public:
  HttpClient(Connector& connector, const RemoteOptions& options) : connector_(connector), options_(options) {}
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  Failure open(const GetRequest& request, OpenResponse& out);
  Failure read_body(std::span<std::byte> out, std::size_t& n);
  // The body has been read to its end: the connection is kept when the server allows it.
  void finish();
  // The rest of the body is not wanted: read it when it is small (keeping the connection),
  // close the connection otherwise.
  void close();
  // Every byte of every response this client read (heads, bodies, chunk framing).
  std::uint64_t bytes_received() const;
  // The status of the last final answer open() read (0 before any): tells "no such file" apart.
  unsigned last_status() const { return last_status_; }

  const RemoteOptions& options() const { return options_; }

 private:
  Failure exchange(const GetRequest& request, const Url& url, ResponseHead& head);
  Failure connection_for(const Url& url, bool& reused);
  void discard_body();
  Failure wait_before_retry(const ResponseHead& head, unsigned attempt);

  Connector& connector_;
  const RemoteOptions& options_;
  std::unique_ptr<Connection> conn_;
  std::string conn_origin_;
  std::uint64_t received_closed_ = 0;  // bytes of connections already closed
  std::optional<std::uint64_t> body_left_;  // of the open response, when its length is known
  unsigned last_status_ = 0;
};

// The statuses retried: 429 and the transient 5xx.
bool retryable_status(unsigned status);

}  // namespace tensorgate::remote
