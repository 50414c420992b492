#include "tally.hpp"

#include <boost/json/array.hpp>

#include <algorithm>

namespace soak {
namespace {

constexpr std::size_t kSamples = 20;       // problem descriptions kept
constexpr std::size_t kLatencies = 1 << 20;  // latencies kept per class

boost::json::object percentiles(std::vector<double> v) {
  boost::json::object o;
  o["count"] = v.size();
  if (v.empty()) return o;
  std::sort(v.begin(), v.end());
  auto at = [&v](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))]; };
  o["p50_ms"] = at(0.50);
  o["p99_ms"] = at(0.99);
  o["max_ms"] = v.back();
  return o;
}

}  // namespace

void Tally::observed(const std::string& route, unsigned status) {
  const std::lock_guard lock(mutex_);
  ++observed_[route][status];
}

void Tally::unobserved(const std::string& route, std::initializer_list<unsigned> statuses) {
  std::string key;
  for (const unsigned s : statuses) key += (key.empty() ? "" : "|") + std::to_string(s);
  const std::lock_guard lock(mutex_);
  ++unobserved_[route][key];
}

void Tally::problem(const std::string& what, const std::string& detail) {
  const std::lock_guard lock(mutex_);
  ++problems_[what];
  if (problem_samples_.size() < kSamples) problem_samples_.push_back(what + ": " + detail);
}

void Tally::compared(bool partial) { add(partial ? "reports_compared_early" : "reports_compared"); }

void Tally::capacity(const std::string& code) {
  const std::lock_guard lock(mutex_);
  ++capacity_[code.empty() ? "unknown" : code];
}

void Tally::add(const std::string& counter, std::uint64_t n) {
  const std::lock_guard lock(mutex_);
  counters_[counter] += n;
}

void Tally::latency(bool worst, double ms) {
  const std::lock_guard lock(mutex_);
  auto& v = worst ? worst_ms_ : small_ms_;
  if (v.size() < kLatencies) v.push_back(ms);
}

boost::json::object Tally::to_json() const {
  const std::lock_guard lock(mutex_);
  boost::json::object out;
  boost::json::object obs;
  for (const auto& [route, codes] : observed_) {
    boost::json::object c;
    for (const auto& [code, n] : codes) c[std::to_string(code)] = n;
    obs[route] = std::move(c);
  }
  out["observed"] = std::move(obs);
  boost::json::object unobs;
  for (const auto& [route, sets] : unobserved_) {
    boost::json::object c;
    for (const auto& [set, n] : sets) c[set] = n;
    unobs[route] = std::move(c);
  }
  out["unobserved"] = std::move(unobs);
  boost::json::object problems;
  for (const auto& [what, n] : problems_) problems[what] = n;
  out["problems"] = std::move(problems);
  boost::json::array samples;
  for (const std::string& s : problem_samples_) samples.emplace_back(s);
  out["problem_samples"] = std::move(samples);
  boost::json::object capacity;
  for (const auto& [code, n] : capacity_) capacity[code] = n;
  out["capacity"] = std::move(capacity);
  boost::json::object counters;
  for (const auto& [name, n] : counters_) counters[name] = n;
  out["counters"] = std::move(counters);
  out["small_upload_latency"] = percentiles(small_ms_);
  out["worst_upload_latency"] = percentiles(worst_ms_);
  return out;
}

}  // namespace soak
