#pragma once
// The service's metrics and their Prometheus text rendering (exposition format 0.0.4), all named
// tensorgate_*. Label values come from fixed sets (routes, status codes, rule families), so the
// number of series stays bounded whatever clients send.
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::service {

class Histogram {
 public:
  explicit Histogram(std::span<const double> bounds);
  void observe(double value);
  // The `_bucket`, `_sum` and `_count` lines of one series.
  void render(std::string& out, std::string_view name, std::string_view labels) const;

 private:
  std::vector<double> bounds_;
  std::vector<std::atomic<std::uint64_t>> counts_;  // per bucket, not cumulative; last is +Inf
  std::atomic<double> sum_{0};
};

// Series of one metric keyed by their rendered label set (`route="validate",code="200"`).
class CounterFamily {
 public:
  void add(const std::string& labels, std::uint64_t n = 1);
  std::uint64_t value(const std::string& labels) const;
  void render(std::string& out, std::string_view name) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::uint64_t> series_;
};

class HistogramFamily {
 public:
  explicit HistogramFamily(std::span<const double> bounds) : bounds_(bounds) {}
  void observe(const std::string& labels, double value);
  void render(std::string& out, std::string_view name) const;

 private:
  std::span<const double> bounds_;
  mutable std::mutex mutex_;
  std::map<std::string, Histogram> series_;
};

// `key="value"` with the value escaped as the text format requires.
std::string label(std::string_view key, std::string_view value);
std::string labels(std::string_view k1, std::string_view v1, std::string_view k2,
                   std::string_view v2);

struct Metrics {
  Metrics();

  CounterFamily requests;          // route, code
  HistogramFamily duration;        // route; seconds
  HistogramFamily request_size;    // route; header + body bytes read
  HistogramFamily body_size;       // route; body bytes read
  CounterFamily validations;       // format, result
  CounterFamily findings;          // family, severity
  CounterFamily timeouts;          // phase
  CounterFamily rejected;          // reason
  std::atomic<std::uint64_t> body_bytes{0};
  std::atomic<std::int64_t> connections_open{0};
  std::atomic<std::int64_t> uploads_in_flight{0};
  std::atomic<std::int64_t> header_budget_in_use{0};
  std::atomic<std::uint64_t> header_budget_capacity{0};
  std::atomic<bool> draining{false};

  std::string render() const;
};

}  // namespace tensorgate::service
