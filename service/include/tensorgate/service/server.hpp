#pragma once
// The validation service as an object: tests and benchmarks run it in-process on an ephemeral
// port; `tensorgate serve` runs it until SIGTERM (serve.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

// Receives each access-log line (tests); the service writes them to stdout.
using LogLineFn = std::function<void(std::string_view line)>;

class Server {
 public:
  explicit Server(const ServiceConfig& config, LogLineFn log_line = {});
  ~Server();  // stops, joins the threads, flushes the log
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds, listens and starts the event-loop threads. Throws std::runtime_error with the reason
  // when the configuration or the address is unusable.
  void start();
  std::uint16_t port() const;

  // What SIGTERM does: stop accepting, answer 503 to new uploads and /readyz, let the uploads in
  // flight finish until drain_timeout, then stop.
  void begin_drain();
  // Handles SIGTERM and SIGINT by draining (a second signal stops at once).
  void handle_signals();
  // Blocks until the server has stopped.
  void wait();
  // Stops now: open connections are closed.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tensorgate::service
