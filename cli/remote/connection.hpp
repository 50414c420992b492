#pragma once
// One HTTP/1.1 connection as the client drives it: a request, its response head, its body in
// pieces. Implemented once over any Beast stream (stream_connection.hpp): TCP, TLS, and the
// fuzzer's in-memory stream run the same response handling.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "response_head.hpp"
#include "url.hpp"

namespace tensorgate::remote {

// What goes on the wire: GET target, Host, and the headers in this order.
struct OutgoingRequest {
  std::string target;
  std::string host;
  std::vector<std::pair<std::string, std::string>> headers;
};

// Errors are one line for the user (a CheckedFile's error): what failed and why. They never hold
// a request header (credentials).
using Failure = std::optional<std::string>;

class Connection {
 public:
  virtual ~Connection() = default;

  virtual Failure send(const OutgoingRequest& request) = 0;
  // The final response's head (interim 1xx responses are read past, a bounded number).
  virtual Failure read_head(ResponseHead& head) = 0;
  // Up to out.size() bytes of the body (decoded from chunks); `n` 0 once the body has ended.
  virtual Failure read_body(std::span<std::byte> out, std::size_t& n) = 0;
  // The body was read to its end and the server keeps the connection open.
  virtual bool reusable() const = 0;
  // Every byte the response parser consumed on this connection: heads, bodies, chunk framing.
  virtual std::uint64_t bytes_received() const = 0;
};

class Connector {
 public:
  virtual ~Connector() = default;
  // A connection to the URL's origin, or nothing with `error` set.
  virtual std::unique_ptr<Connection> connect(const Url& url, std::string& error) = 0;
};

}  // namespace tensorgate::remote
