#include "metrics.hpp"

#include <array>
#include <charconv>

#include "tensorgate/report_writers.hpp"

namespace tensorgate::service {
namespace {

// Seconds: 1 ms for health checks up to 6 hours for a 50 GB upload at a slow rate.
constexpr std::array<double, 15> kSecondsBuckets = {
    0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600, 21600};
// Bytes: 1 kB to 500 GB, so hub uploads of tens and hundreds of GB fall into real buckets.
constexpr std::array<double, 12> kBytesBuckets = {
    1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 5e10, 1e11, 2e11, 5e11};

// The shortest text that reads back as the same double ("0.005", not "0.0050000000000000001").
void append_number(std::string& out, double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, ec == std::errc{} ? end : buf);
}

void header(std::string& out, std::string_view name, std::string_view type,
            std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

template <typename T>
void gauge(std::string& out, std::string_view name, std::string_view help, T value) {
  header(out, name, "gauge", help);
  out.append(name).append(" ").append(std::to_string(value)).append("\n");
}

}  // namespace

Histogram::Histogram(std::span<const double> bounds)
    : bounds_(bounds.begin(), bounds.end()), counts_(bounds.size() + 1) {}

void Histogram::observe(double value) {
  std::size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

void Histogram::render(std::string& out, std::string_view name, std::string_view labels) const {
  const std::string sep = labels.empty() ? "" : ",";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    cumulative += counts_[i].load(std::memory_order_relaxed);
    out.append(name).append("_bucket{").append(labels).append(sep).append("le=\"");
    if (i < bounds_.size()) append_number(out, bounds_[i]); else out += "+Inf";
    out.append("\"} ").append(std::to_string(cumulative)).append("\n");
  }
  const std::string braces = labels.empty() ? "" : "{" + std::string(labels) + "}";
  out.append(name).append("_sum").append(braces).append(" ");
  append_number(out, sum_.load(std::memory_order_relaxed));
  out.append("\n").append(name).append("_count").append(braces).append(" ");
  out.append(std::to_string(cumulative)).append("\n");
}

void CounterFamily::add(const std::string& labels, std::uint64_t n) {
  const std::lock_guard lock(mutex_);
  series_[labels] += n;
}

std::uint64_t CounterFamily::value(const std::string& labels) const {
  const std::lock_guard lock(mutex_);
  const auto it = series_.find(labels);
  return it == series_.end() ? 0 : it->second;
}

void CounterFamily::render(std::string& out, std::string_view name) const {
  const std::lock_guard lock(mutex_);
  for (const auto& [labels, v] : series_)
    out.append(name).append("{").append(labels).append("} ").append(std::to_string(v)).append("\n");
}

void HistogramFamily::observe(const std::string& labels, double value) {
  const std::lock_guard lock(mutex_);
  series_.try_emplace(labels, bounds_).first->second.observe(value);
}

void HistogramFamily::render(std::string& out, std::string_view name) const {
  const std::lock_guard lock(mutex_);
  for (const auto& [labels, h] : series_) h.render(out, name, labels);
}

std::string label(std::string_view key, std::string_view value) {
  std::string out(key);
  out += "=\"";
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  out += '"';
  return out;
}

std::string labels(std::string_view k1, std::string_view v1, std::string_view k2,
                   std::string_view v2) {
  return label(k1, v1) + "," + label(k2, v2);
}

Metrics::Metrics()
    : duration(kSecondsBuckets), request_size(kBytesBuckets), body_size(kBytesBuckets) {}

std::string Metrics::render() const {
  std::string out;
  header(out, "tensorgate_build_info", "gauge", "Build information; the value is always 1.");
  out.append("tensorgate_build_info{").append(label("version", tool_version()))
      .append(",boost=\"1.81\"} 1\n");
  header(out, "tensorgate_http_requests_total", "counter", "HTTP requests answered, by route and status code.");
  requests.render(out, "tensorgate_http_requests_total");
  header(out, "tensorgate_http_request_duration_seconds", "histogram", "Time from the first byte of a request to the end of its answer.");
  duration.render(out, "tensorgate_http_request_duration_seconds");
  header(out, "tensorgate_http_request_size_bytes", "histogram", "Bytes read for a request: header and body.");
  request_size.render(out, "tensorgate_http_request_size_bytes");
  header(out, "tensorgate_http_request_body_bytes", "histogram", "Body bytes read for a request.");
  body_size.render(out, "tensorgate_http_request_body_bytes");
  header(out, "tensorgate_validations_total", "counter", "Validations finished, by format and result (valid, invalid, aborted).");
  validations.render(out, "tensorgate_validations_total");
  header(out, "tensorgate_findings_total", "counter", "Findings reported, by rule family and severity.");
  findings.render(out, "tensorgate_findings_total");
  header(out, "tensorgate_timeouts_total", "counter", "Connections closed by a deadline, by phase (idle, header, body, rate, write).");
  timeouts.render(out, "tensorgate_timeouts_total");
  header(out, "tensorgate_rejected_connections_total", "counter", "Connections refused before a request was read, by reason.");
  rejected.render(out, "tensorgate_rejected_connections_total");
  header(out, "tensorgate_body_bytes_received_total", "counter", "Upload body bytes read.");
  out.append("tensorgate_body_bytes_received_total ").append(std::to_string(body_bytes.load())).append("\n");
  gauge(out, "tensorgate_connections_open", "Open client connections.", connections_open.load());
  gauge(out, "tensorgate_uploads_in_flight", "Uploads being read or answered.", uploads_in_flight.load());
  gauge(out, "tensorgate_header_budget_bytes_in_use", "Bytes of the shared header memory budget held.", header_budget_in_use.load());
  gauge(out, "tensorgate_header_budget_bytes", "Size of the shared header memory budget.", header_budget_capacity.load());
  gauge(out, "tensorgate_draining", "1 while the service drains before stopping.", draining.load() ? 1 : 0);
  return out;
}

}  // namespace tensorgate::service
