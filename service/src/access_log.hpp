#pragma once
// The access log: one JSON object per line, one line per request, written by spdlog's async
// logger so a slow stdout never stalls the event loop. spdlog 1.10 has no JSON sink and does not
// escape `%v`, so the line is built here with the core's JsonWriter and logged as the message.
// Only request facts are logged: never tensor names or metadata from the files.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace spdlog {
class async_logger;
namespace details {
class thread_pool;
}
}  // namespace spdlog

namespace tensorgate::service {

struct RequestRecord {
  std::string_view request_id;
  std::string_view remote;
  std::string_view method;
  std::string_view route;
  unsigned status = 0;
  std::string_view code;      // problem code, or empty
  std::string_view note;      // why the exchange ended without a response ("timeout-body", ...)
  std::uint64_t request_bytes = 0;
  std::uint64_t body_bytes = 0;
  std::uint64_t bytes_sent = 0;
  double duration_seconds = 0;
  std::string_view format;    // uploads: the format validated
  std::string_view verdict;   // uploads: valid, invalid, aborted
  std::uint64_t findings = 0;
};

// Where lines go: stdout when empty (the service), a function in tests.
using LogLineFn = std::function<void(std::string_view line)>;

class AccessLog {
 public:
  // `level` is an spdlog level name; "off" disables the log.
  AccessLog(const LogLineFn& line_fn, std::string_view level);
  ~AccessLog();  // flushes
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  void request(const RequestRecord& r);
  // A lifecycle event: {"event": ..., key: value}.
  void event(std::string_view event, std::string_view key = {}, std::string_view value = {});
  void warn(std::string_view event, std::string_view message);

 private:
  std::shared_ptr<spdlog::details::thread_pool> pool_;
  std::shared_ptr<spdlog::async_logger> logger_;
};

// The current UTC time as 2026-01-02T03:04:05.678Z.
std::string utc_timestamp();

}  // namespace tensorgate::service
