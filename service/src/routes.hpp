#pragma once
// The route table and the answers of the small GET routes. The routes that read a body have an
// exchange each (upload_exchange.hpp, check_model_exchange.hpp).
#include <cstdint>
#include <string_view>

#include "net.hpp"

namespace tensorgate::service {

class ServiceContext;

// ui: the web page, "/" and "/ui/<file>" (ui.hpp).
enum class Route : std::uint8_t { validate, check_model, livez, readyz, metrics, rules, openapi, ui, unknown };

std::string_view route_name(Route r);  // the metrics and log label: "/v1/validate", "other"
Route match_route(std::string_view path);
bool method_allowed(Route r, http::verb method);
std::string_view allowed_methods(Route r);  // the Allow field of a 405

// The answer to an allowed GET on livez, readyz, metrics, rules or openapi.
Response answer_get(Route r, ServiceContext& ctx, unsigned http_version);
// HEAD: a GET answer's status and fields, Content-Length included, and no body.
Response without_body(Response res);
// The GET routes a connection past max_connections may still use (probes and metrics).
inline bool is_probe(Route r) { return r == Route::livez || r == Route::readyz || r == Route::metrics; }

// The OpenAPI description, embedded at build time from docs/openapi.json.
std::string_view openapi_json();

}  // namespace tensorgate::service
