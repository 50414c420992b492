#pragma once
// A minimum transfer rate, averaged over each window: the idle deadline alone lets a client hold
// an upload slot for ever with one byte per deadline, or hold a large answer's memory by reading
// it one byte per deadline. Request bodies (min_body_rate_*) and answers (min_write_rate_*).
#include <chrono>
#include <cstdint>

#include "exchange.hpp"
#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

class RateWindow {
 public:
  RateWindow(std::uint64_t min_bytes_per_second, Millis window)
      : min_rate_(min_bytes_per_second), window_(window), start_(Clock::now()) {}

  // `transferred`: the bytes so far. True when the window that just closed averaged less than
  // the minimum; a window that passes starts the next one. Never true while the minimum is 0.
  bool too_slow(std::uint64_t transferred) {
    if (min_rate_ == 0) return false;
    const Clock::time_point now = Clock::now();
    if (now - start_ < window_) return false;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const std::uint64_t got = transferred - bytes_;
    if (static_cast<double>(got) < seconds * static_cast<double>(min_rate_)) return true;
    start_ = now;
    bytes_ = transferred;
    return false;
  }

 private:
  std::uint64_t min_rate_;
  Millis window_;
  Clock::time_point start_;
  std::uint64_t bytes_ = 0;
};

}  // namespace tensorgate::service
