#pragma once
// The progress line of a long `tensorgate check` (a --list of a hub's worth of files, URLs) on a
// terminal: entries and files done, bytes transferred and the rate, redrawn on standard error a
// few times a second and erased at the end. Off when standard error is not a terminal.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tensorgate::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Thread-safe: the planner adds entries as it finds them, workers report as they finish.
  void add_entries(std::uint64_t n) { entries_.fetch_add(n, std::memory_order_relaxed); }
  void file_done(std::uint64_t bytes_transferred);
  void entry_done();

  // "12/40 entries, 57 files, 3.2 MB transferred, 1.1 MB/s"
  std::string text() const;

 private:
  void tick();

  std::atomic<std::uint64_t> entries_{0};
  // Read when the line is on: a small check's first clock read maps the vDSO's data page.
  std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> entries_done_{0}, files_done_{0}, bytes_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;
};

// "3.2 MB": decimal units, one decimal place past the first unit.
std::string human_bytes(double bytes);

}  // namespace tensorgate::cli
