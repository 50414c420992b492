#pragma once
// One request/response exchange on a connection: what the access log and the metrics record
// when it ends, however it ends. The session keeps it; the route's exchange (upload_exchange.hpp,
// check_model_exchange.hpp) adds what it learns.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "routes.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::service {

class ServiceContext;
using Clock = std::chrono::steady_clock;

struct ExchangeRecord {
  bool active = false;  // a request is being handled
  std::string id;
  std::string method;
  Route route = Route::unknown;
  unsigned version = 11;
  Clock::time_point start{};
  std::uint64_t header_bytes = 0;
  bool keep_alive = false;    // the client allows another request on this connection
  bool body_pending = false;  // a declared body was not read to its end: close after answering
  std::string_view code;      // problem code of the answer, if any
  std::string_view format;    // uploads: the format validated
  std::string_view verdict;   // uploads: valid, invalid, aborted
  std::uint64_t findings = 0;
};

struct ExchangeEnd {
  unsigned status;
  std::uint64_t body_bytes;
  std::uint64_t bytes_sent;
  std::string_view note;  // why there was no (complete) answer, if so
};

// Metrics and the access log line for an exchange that ended.
void record_exchange(ServiceContext& ctx, const ExchangeRecord& ex, std::string_view remote,
                     const ExchangeEnd& end);

// Metrics for a finished validation: the verdict and its findings by rule family.
void record_validation(ServiceContext& ctx, ExchangeRecord& ex, const Report& report);

}  // namespace tensorgate::service
