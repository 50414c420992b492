#pragma once
// Error answers: RFC 9457 problem details (application/problem+json) with a stable `code`.
// Each problem is a row of one static table; the code, status and title never change, so
// clients and the tests key on `code`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "net.hpp"

namespace tensorgate::service {

enum class Problem : std::uint8_t {
  bad_request,                // 400 Beast could not parse the request
  bad_framing,                // 400 Transfer-Encoding with Content-Length, or in HTTP/1.0
  missing_host,               // 400 HTTP/1.1 without exactly one Host
  bad_target,                 // 400 not an origin-form path
  bad_query,                  // 400 unknown or malformed query parameter
  bad_check_model,            // 400 a /v1/check-model body not of the documented form
  not_found,                  // 404
  method_not_allowed,         // 405
  length_required,            // 411
  body_too_large,             // 413 above max_body_bytes
  validation_limit,           // 413 a validator limit of this service (Report::aborted)
  expectation_failed,         // 417
  header_fields_too_large,    // 431
  internal_error,             // 500
  unsupported_transfer_coding,  // 501
  over_capacity,              // 503 max_concurrent_uploads reached
  too_many_connections,       // 503 max_connections reached
  memory_budget,              // 503 the shared header budget is spent
  draining,                   // 503 shutting down
  http_version,               // 505 not HTTP/1.0 or HTTP/1.1
};

struct ProblemInfo {
  Problem problem;
  std::string_view code;   // stable, kebab-case
  unsigned status;
  std::string_view title;  // one line, stable for a code
  bool retry;              // answered with Retry-After
};

const ProblemInfo& problem_info(Problem p);

// What the problem body says beyond the table row.
struct ProblemDetails {
  std::string_view request_id;
  std::string detail;                            // may be empty
  std::optional<std::uint64_t> bytes_received;   // /v1/validate: body bytes read
  std::string_view limit;                        // validation_limit: Aborted::limit
};

// The JSON body of a problem.
std::string problem_json(Problem p, const ProblemDetails& details);

// A complete response (status, Content-Type, Retry-After, Allow for 405), keep-alive unset.
Response make_problem_response(Problem p, const ProblemDetails& details, unsigned http_version,
                               unsigned retry_after_seconds);

}  // namespace tensorgate::service
