#pragma once
// What every connection of one server shares: the configuration, metrics, the header memory
// budget, the access log, the upload slots and the draining flag. All of it is thread-safe.
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include <functional>

#include "access_log.hpp"
#include "header_budget.hpp"
#include "metrics.hpp"
#include "net.hpp"
#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

class ServiceContext {
 public:
  // `log` may be null (the fuzzer logs nothing). Request ids start with `id_prefix`, or with a
  // random one when it is empty (a fixed one keeps in-memory runs deterministic).
  ServiceContext(const ServiceConfig& config, AccessLog* log, std::string id_prefix = {});

  const ServiceConfig config;
  Metrics metrics;
  HeaderBudget budget;
  AccessLog* const log;

  bool draining() const { return metrics.draining.load(std::memory_order_relaxed); }

  // Runs `work` on a worker thread, then `done` on `back` (the session's executor). Without
  // workers (the in-memory harness) `work` runs at once and `done` is posted.
  void offload(std::function<void()> work, net::any_io_executor back, std::function<void()> done);
  net::thread_pool* workers = nullptr;  // set by the server, which owns the pool

  // After a burst: once nothing is held, give freed memory back to the system (glibc keeps
  // freed pages of large headers and reports in its arenas), at most once a second.
  void trim_when_idle();

  // An upload slot (max_concurrent_uploads); false when all are taken.
  bool try_begin_upload();
  void end_upload();
  std::int64_t uploads_in_flight() const { return metrics.uploads_in_flight.load(); }

  // A request id: this process's random prefix and a counter, or the client's X-Request-Id when
  // it is short and plain enough to log.
  std::string request_id(std::string_view client_id);

 private:
  std::string id_prefix_;
  std::atomic<std::int64_t> last_trim_ms_{0};
  std::atomic<std::uint64_t> next_id_{1};
};

// How many worker threads a server runs: config.worker_threads, 0 = one per core.
unsigned worker_thread_count(const ServiceConfig& config);

}  // namespace tensorgate::service
