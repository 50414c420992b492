#pragma once
// The CPU time one heavy step of an upload may take on a worker thread (ServiceConfig::
// max_parse_cpu), as the core's Deadline: measured on the thread's own CPU clock, so time the
// worker spends waiting or that other threads take from its core is not counted, and a busy
// server does not turn an ordinary header into a timeout.
#include <time.h>

#include <chrono>
#include <cstdint>

#include "tensorgate/deadline.hpp"

namespace tensorgate::service {

class ThreadCpuDeadline final : public Deadline {
 public:
  // Starts now, on the calling thread, which must be the one that runs the step.
  explicit ThreadCpuDeadline(std::chrono::milliseconds limit)
      : limit_ns_(static_cast<std::int64_t>(limit.count()) * 1'000'000), start_ns_(now_ns()) {}

  bool passed() override { return now_ns() - start_ns_ > limit_ns_; }

 private:
  static std::int64_t now_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  }
  std::int64_t limit_ns_;
  std::int64_t start_ns_;
};

}  // namespace tensorgate::service
