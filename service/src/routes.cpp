#include "routes.hpp"

#include <array>

#include "context.hpp"
#include "ui.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::service {
namespace {

struct RouteRow {
  Route route;
  std::string_view path;
  std::string_view allow;
};

constexpr std::array kRoutes = {
    RouteRow{Route::validate, "/v1/validate", "POST, PUT"},
    RouteRow{Route::check_model, "/v1/check-model", "POST"},
    RouteRow{Route::livez, "/livez", "GET, HEAD"},
    RouteRow{Route::readyz, "/readyz", "GET, HEAD"},
    RouteRow{Route::metrics, "/metrics", "GET, HEAD"},
    RouteRow{Route::rules, "/v1/rules", "GET, HEAD"},
    RouteRow{Route::openapi, "/v1/openapi.json", "GET, HEAD"},
    RouteRow{Route::ui, "/", "GET, HEAD"},  // and /ui/<file>: one metrics label for the page
};

Response json_response(http::status status, unsigned version, std::string body) {
  Response res{status, version};
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

std::string rules_json() {
  std::string out;
  {
    JsonWriter w([&out](std::string_view s) { out.append(s); });
    write_rules_json(w);
  }
  out.push_back('\n');
  return out;
}

// {"status":"ready"}, and the policy in force when there is one: what an operator checks after
// rolling out a new policy file.
std::string ready_json(const ServiceConfig& config) {
  if (!config.policy) return "{\"status\":\"ready\"}\n";
  std::string out;
  {
    JsonWriter w([&out](std::string_view s) { out.append(s); });
    w.begin_object();
    w.field("status", "ready");
    write_policy_identity(w, config.policy->identity);
    w.end_object();
  }
  out.push_back('\n');
  return out;
}

}  // namespace

std::string_view route_name(Route r) {
  for (const RouteRow& row : kRoutes)
    if (row.route == r) return row.path;
  return "other";
}

Route match_route(std::string_view path) {
  for (const RouteRow& row : kRoutes)
    if (row.path == path) return row.route;
  if (is_ui_path(path)) return Route::ui;
  return Route::unknown;
}

bool method_allowed(Route r, http::verb method) {
  if (r == Route::validate) return method == http::verb::post || method == http::verb::put;
  if (r == Route::check_model) return method == http::verb::post;
  // RFC 9110 9.1: a server supports GET and HEAD on what it serves.
  return method == http::verb::get || method == http::verb::head;
}

std::string_view allowed_methods(Route r) {
  for (const RouteRow& row : kRoutes)
    if (row.route == r) return row.allow;
  return "";
}

Response without_body(Response res) {
  if (res.result() == http::status::not_modified) return res;
  const std::size_t length = res.body().size();
  res.body().clear();
  res.content_length(length);  // the length a GET would have, without the body (RFC 9110 9.3.2)
  return res;
}

Response answer_get(Route r, ServiceContext& ctx, unsigned version) {
  switch (r) {
    case Route::livez:
      return json_response(http::status::ok, version, "{\"status\":\"ok\"}\n");
    case Route::readyz:
      if (ctx.draining()) {
        Response res = json_response(http::status::service_unavailable, version, "{\"status\":\"draining\"}\n");
        res.set(http::field::retry_after, std::to_string(ctx.config.retry_after_seconds));
        return res;
      }
      return json_response(http::status::ok, version, ready_json(ctx.config));
    case Route::metrics: {
      Response res{http::status::ok, version};
      res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
      res.set(http::field::cache_control, "no-store");
      res.body() = ctx.metrics.render();
      res.prepare_payload();
      return res;
    }
    case Route::rules: {
      static const std::string body = rules_json();
      return json_response(http::status::ok, version, body);
    }
    case Route::openapi:
      return json_response(http::status::ok, version, std::string(openapi_json()));
    default:
      return json_response(http::status::internal_server_error, version, "{}\n");
  }
}

}  // namespace tensorgate::service
