#include "problem.hpp"

#include <array>

#include "tensorgate/json_writer.hpp"

namespace tensorgate::service {
namespace {

constexpr std::array kProblems = {
    ProblemInfo{Problem::bad_request, "bad-request", 400, "The request is not valid HTTP/1.1", false},
    ProblemInfo{Problem::bad_framing, "bad-framing", 400,
                "The request's body framing is ambiguous", false},
    ProblemInfo{Problem::missing_host, "missing-host", 400,
                "An HTTP/1.1 request needs exactly one Host field", false},
    ProblemInfo{Problem::bad_target, "bad-target", 400, "The request target is not a path", false},
    ProblemInfo{Problem::bad_query, "bad-query", 400, "A query parameter is unknown or invalid",
                false},
    ProblemInfo{Problem::bad_check_model, "bad-check-model", 400,
                "The body is not a model check request", false},
    ProblemInfo{Problem::not_found, "not-found", 404, "No such route", false},
    ProblemInfo{Problem::method_not_allowed, "method-not-allowed", 405,
                "The route does not support this method", false},
    ProblemInfo{Problem::length_required, "length-required", 411,
                "An upload needs Content-Length or chunked Transfer-Encoding", false},
    ProblemInfo{Problem::body_too_large, "body-too-large", 413,
                "The body is larger than this service accepts", false},
    ProblemInfo{Problem::validation_limit, "validation-limit", 413,
                "The file needs more than this service's validation limits allow", false},
    ProblemInfo{Problem::expectation_failed, "expectation-failed", 417,
                "Only the 100-continue expectation is supported", false},
    ProblemInfo{Problem::header_fields_too_large, "header-fields-too-large", 431,
                "The request header is larger than this service accepts", false},
    ProblemInfo{Problem::internal_error, "internal-error", 500, "Internal error", false},
    ProblemInfo{Problem::unsupported_transfer_coding, "unsupported-transfer-coding", 501,
                "Only Transfer-Encoding: chunked is supported", false},
    ProblemInfo{Problem::over_capacity, "over-capacity", 503,
                "Too many uploads in progress", true},
    ProblemInfo{Problem::too_many_connections, "too-many-connections", 503,
                "Too many open connections", true},
    ProblemInfo{Problem::memory_budget, "memory-budget", 503,
                "No memory left to buffer this file's header", true},
    ProblemInfo{Problem::draining, "draining", 503, "The service is shutting down", true},
    ProblemInfo{Problem::http_version, "http-version-not-supported", 505,
                "Only HTTP/1.0 and HTTP/1.1 are supported", false},
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kProblems.size(); ++i)
    if (kProblems[i].problem != static_cast<Problem>(i)) return false;
  return true;
}
static_assert(in_enum_order(), "kProblems rows must follow the Problem enum");

}  // namespace

const ProblemInfo& problem_info(Problem p) { return kProblems[static_cast<std::size_t>(p)]; }

std::string problem_json(Problem p, const ProblemDetails& details) {
  const ProblemInfo& info = problem_info(p);
  std::string out;
  {
    JsonWriter w([&out](std::string_view s) { out.append(s); });
    w.begin_object();
    w.field("type", "urn:tensorgate:problem:" + std::string(info.code));
    w.field("title", info.title);
    w.field("status", std::uint64_t{info.status});
    w.field("code", info.code);
    if (!details.detail.empty()) w.field("detail", details.detail);
    if (!details.request_id.empty()) w.field("request_id", details.request_id);
    if (details.bytes_received) w.field("bytes_received", *details.bytes_received);
    if (!details.limit.empty()) w.field("limit", details.limit);
    w.end_object();
  }
  return out;
}

Response make_problem_response(Problem p, const ProblemDetails& details, unsigned http_version,
                               unsigned retry_after_seconds) {
  const ProblemInfo& info = problem_info(p);
  Response res{static_cast<http::status>(info.status), http_version};
  res.set(http::field::content_type, "application/problem+json");
  res.set(http::field::cache_control, "no-store");
  if (info.retry) res.set(http::field::retry_after, std::to_string(retry_after_seconds));
  res.body() = problem_json(p, details);
  res.body().push_back('\n');
  res.prepare_payload();
  return res;
}

}  // namespace tensorgate::service
