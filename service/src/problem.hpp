#pragma once
// Error answers: RFC 9457 problem details (application/problem+json) with a stable `code`.
// Each problem is a row of problems.def; the code, status and title never change, so clients
// and the tests key on `code`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "net.hpp"

namespace tensorgate::service {

enum class Problem : std::uint8_t {
#define TENSORGATE_PROBLEM(e, code, status, title, retry) e,
#include "problems.def"
#undef TENSORGATE_PROBLEM
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
