#include "progress_line.hpp"

#include <cstdio>

namespace tensorgate::cli {

std::string human_bytes(double bytes) {
  static constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  std::size_t unit = 0;
  while (bytes >= 1000 && unit + 1 < std::size(kUnits)) {
    bytes /= 1000;
    ++unit;
  }
  char out[32];
  std::snprintf(out, sizeof out, unit ? "%.1f %s" : "%.0f %s", bytes, kUnits[unit]);
  return out;
}

ProgressLine::ProgressLine(bool enabled) {
  if (!enabled) return;
  start_ = std::chrono::steady_clock::now();
  ticker_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() {
  if (!ticker_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  const std::string last = "\r\x1b[K" + text() + "\r\x1b[K";  // the final count, then a clean line
  std::fputs(last.c_str(), stderr);
  std::fflush(stderr);
}

void ProgressLine::file_done(std::uint64_t bytes_transferred) {
  files_done_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(bytes_transferred, std::memory_order_relaxed);
}

void ProgressLine::entry_done() { entries_done_.fetch_add(1, std::memory_order_relaxed); }

std::string ProgressLine::text() const {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const auto bytes = static_cast<double>(bytes_.load(std::memory_order_relaxed));
  const std::uint64_t files = files_done_.load(std::memory_order_relaxed);
  return std::to_string(entries_done_.load(std::memory_order_relaxed)) + "/" + std::to_string(entries_.load(std::memory_order_relaxed)) +
         " entries, " + std::to_string(files) + (files == 1 ? " file, " : " files, ") + human_bytes(bytes) +
         " transferred, " + human_bytes(seconds > 0 ? bytes / seconds : 0) + "/s";
}

void ProgressLine::tick() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    const std::string line = "\r\x1b[K" + text();
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; });
  }
}

}  // namespace tensorgate::cli
