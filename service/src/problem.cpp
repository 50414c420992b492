#include "problem.hpp"

#include "tensorgate/json_writer.hpp"

namespace tensorgate::service {
namespace {

constexpr ProblemInfo kProblems[] = {
#define TENSORGATE_PROBLEM(e, code, status, title, retry) ProblemInfo{Problem::e, code, status, title, retry},
#include "problems.def"
#undef TENSORGATE_PROBLEM
};

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
