#pragma once
// One blocking loopback connection with deadlines on everything (poll before every send and
// receive), and HTTP responses read through Beast's parser into a ReportDigester: the body of a
// 100 MB report is hashed as it arrives and never stored.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report_digest.hpp"

namespace soak {

using Clock = std::chrono::steady_clock;

struct Response {
  unsigned status = 0;  // 0: none (closed, reset or the deadline passed)
  bool timed_out = false;  // status 0 because the deadline passed (not a close)
  bool keep_alive = false;
  std::string content_type;
  std::string body_head;  // the first 64 KiB of the body
  std::uint64_t body_bytes = 0;
  std::optional<ReportDigest> report;  // 200 and 422 JSON bodies
  std::string report_error;            // the body of a 200/422 was not a report
  std::string problem_code;            // the `code` of a problem+json body
  Clock::duration latency{};           // from the end of the request to the end of the answer
};

enum class SendResult {
  sent,      // every byte went out
  answered,  // the server answered (or closed) before the request was all sent
  failed,    // reset, or the deadline passed
};

class Conn {
 public:
  explicit Conn(std::uint16_t port);
  ~Conn();
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Sends the parts in order; stops early when the server has something to say (unless
  // `stop_on_answer` is false: pipelined requests are answered while later ones go out).
  SendResult send(std::vector<std::string_view> parts, Clock::time_point deadline,
                  bool stop_on_answer = true) {
    return send_rest(parts, deadline, stop_on_answer);
  }
  // The same, consuming `parts` as they go out: after `answered`, what is left can be sent on
  // (the answer was a late 100 Continue).
  SendResult send_rest(std::vector<std::string_view>& parts, Clock::time_point deadline,
                       bool stop_on_answer = true);
  SendResult send(std::string_view bytes, Clock::time_point deadline, bool stop_on_answer = true) {
    return send(std::vector<std::string_view>{bytes}, deadline, stop_on_answer);
  }
  // One response; 1xx answers are returned like others.
  Response read_response(Clock::time_point deadline);
  // Waits until the server closes the connection (EOF, reset or half-close seen without reading
  // what it sent when `read` is false). False at the deadline.
  bool wait_closed(Clock::time_point deadline, bool read);
  // Closes with a reset (SO_LINGER 0): the server sees ECONNRESET.
  void reset();
  // Readable within `ms` (for an answer that may come early, e.g. 100 Continue or a 503).
  bool readable_within(int ms);

 private:
  int fd_ = -1;
  std::string pending_;  // received, not yet parsed
};

}  // namespace soak
