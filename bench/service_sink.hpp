#pragma once
// The baseline of the service benchmark: an HTTP server built from the same Beast read loop as
// the service's session (a parser per request with no body limit, a 64 KiB flat_buffer,
// tcp_stream with a deadline before every read, http::async_read_some) whose body goes nowhere.
// What the service adds on top of it, validation and digest, is what the benchmark measures.
#include <cstdint>
#include <memory>

namespace tgbench {

class NullSink {
 public:
  NullSink();  // listens on 127.0.0.1, an ephemeral port, one thread
  ~NullSink();
  std::uint16_t port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tgbench
