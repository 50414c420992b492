#pragma once
// The service's request handling over an in-memory stream: no sockets, no threads, no clocks.
// The fuzzer (fuzz/http_request_fuzzer.cpp) feeds raw client bytes through it. serve_from_source,
// at the end, is the exception: it runs the service's worker threads too.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

// Runs one connection: `client_bytes` arrive at most `read_size` bytes per read (0: all at
// once), then the client closes its side. Returns every byte the server wrote. Deterministic
// when config.min_body_rate_bytes_per_second is 0.
std::string serve_in_memory(const ServiceConfig& config, std::string_view client_bytes,
                            std::size_t read_size = 0);

// One connection driven a step at a time: the client's bytes arrive as they are sent, and what
// the server writes is handed to `received` as soon as it is written, a read's worth at most,
// and then dropped, as a socket's reader would take it. For tests that watch what a large upload
// holds while it streams in (tests/service_budget_truth_test.cpp).
class InMemoryConnection {
 public:
  using Receiver = std::function<void(std::string_view)>;
  InMemoryConnection(const ServiceConfig& config, Receiver received);
  ~InMemoryConnection();
  InMemoryConnection(const InMemoryConnection&) = delete;
  InMemoryConnection& operator=(const InMemoryConnection&) = delete;

  // The bytes arrive; the server runs until it waits for more.
  void send(std::string_view bytes);
  // The client closes its side; the server runs to the end of the connection.
  void close();
  // The bytes the server's memory budget holds now.
  std::int64_t budget_held() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// One connection whose client is a function, run to its end on the calling thread with the
// service's worker threads beside it (config.worker_threads, 0 = one per core), as `serve` runs
// a connection: an upload's digest is hashed on a worker while the next bytes are read. Every
// read asks `source` for up to `capacity` bytes (0: the client has sent everything and closes);
// what the server writes goes to `received`. The service benchmark's streamed upload without
// loopback TCP, whose cost on a machine shared with the client is not the service's
// (bench/service_load.cpp, `memory` mode).
using Source = std::function<std::size_t(char* dst, std::size_t capacity)>;
void serve_from_source(const ServiceConfig& config, Source source, InMemoryConnection::Receiver received);

}  // namespace tensorgate::service
