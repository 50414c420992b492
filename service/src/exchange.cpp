#include "exchange.hpp"

#include "context.hpp"

namespace tensorgate::service {

void record_exchange(ServiceContext& ctx, const ExchangeRecord& ex, std::string_view remote,
                     const ExchangeEnd& end) {
  const std::string route = label("route", route_name(ex.route));
  const double seconds = std::chrono::duration<double>(Clock::now() - ex.start).count();
  const std::uint64_t request_bytes = ex.header_bytes + end.body_bytes;
  ctx.metrics.requests.add(route + "," + label("code", std::to_string(end.status)));
  ctx.metrics.duration.observe(route, seconds);
  ctx.metrics.request_size.observe(route, static_cast<double>(request_bytes));
  if (ex.route == Route::validate) {
    ctx.metrics.body_size.observe(route, static_cast<double>(end.body_bytes));
    ctx.metrics.body_bytes.fetch_add(end.body_bytes, std::memory_order_relaxed);
  }
  if (!ctx.log) return;
  RequestRecord r;
  r.request_id = ex.id;
  r.remote = remote;
  r.method = ex.method;
  r.route = route_name(ex.route);
  r.status = end.status;
  r.code = ex.code;
  r.note = end.note;
  r.request_bytes = request_bytes;
  r.body_bytes = end.body_bytes;
  r.bytes_sent = end.bytes_sent;
  r.duration_seconds = seconds;
  r.format = ex.format;
  r.verdict = ex.verdict;
  r.findings = ex.findings;
  ctx.log->request(r);
}

void record_validation(ServiceContext& ctx, ExchangeRecord& ex, const Report& report) {
  ex.format = format_name(report.format);
  ex.verdict = report.aborted ? "aborted" : report.valid ? "valid" : "invalid";
  ex.findings = report.findings.size() + report.findings_dropped;
  ctx.metrics.validations.add(labels("format", ex.format, "result", ex.verdict));
  for (const Finding& f : report.findings)
    ctx.metrics.findings.add(
        labels("family", rule_info(f.rule).family, "severity", severity_name(f.severity)));
}

}  // namespace tensorgate::service
