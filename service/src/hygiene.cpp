#include "hygiene.hpp"

#include <boost/beast/core/string.hpp>

namespace tensorgate::service {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view field_value(const RequestHeader& h, http::field f) {
  const auto it = h.find(f);
  return it == h.end() ? std::string_view{} : std::string_view(it->value());
}

// RFC 9110 7.2: Host is uri-host [":" port]; a list ("a, b") or whitespace inside is invalid
// (400). An empty value is allowed (a request whose target has no authority).
bool valid_host(std::string_view v) {
  v = trim(v);
  for (const char c : v) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("-._~%!$&'()*+,;=:[]").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;  // "a,b" is a valid reg-name (sub-delims); "a, b" failed on its space
}

}  // namespace

std::optional<Problem> check_framing(const RequestHeader& h) {
  if (h.version() != 10 && h.version() != 11) return Problem::http_version;
  const std::size_t te = h.count(http::field::transfer_encoding);
  if (te > 0) {
    if (h.count(http::field::content_length) > 0) return Problem::bad_framing;
    if (h.version() == 10) return Problem::bad_framing;
    // Exactly one field whose whole value is `chunked`: `gzip, chunked` would hand the validator
    // compressed bytes, and `chunked, gzip` leaves the body's end unknown.
    if (te > 1 || !beast::iequals(trim(field_value(h, http::field::transfer_encoding)), "chunked"))
      return Problem::unsupported_transfer_coding;
  }
  if (h.version() == 11 && h.count(http::field::host) != 1) return Problem::missing_host;
  if (h.count(http::field::host) == 1 && !valid_host(field_value(h, http::field::host)))
    return Problem::missing_host;
  return std::nullopt;
}

std::optional<Problem> check_expect(const RequestHeader& h) {
  const std::size_t n = h.count(http::field::expect);
  if (n == 0 || h.version() == 10) return std::nullopt;
  if (n > 1 || !beast::iequals(trim(field_value(h, http::field::expect)), "100-continue"))
    return Problem::expectation_failed;
  return std::nullopt;
}

bool expects_continue(const RequestHeader& h) {
  return h.version() == 11 && h.count(http::field::expect) == 1 && !check_expect(h);
}

bool declares_body(const RequestHeader& h) {
  if (h.count(http::field::transfer_encoding) > 0) return true;
  const std::string_view cl = trim(field_value(h, http::field::content_length));
  return !cl.empty() && cl.find_first_not_of("0") != std::string_view::npos;
}

Problem problem_for_parse_error(const error_code& ec) {
  if (ec == http::error::header_limit || ec == http::error::buffer_overflow)
    return Problem::header_fields_too_large;
  if (ec == http::error::bad_content_length || ec == http::error::multiple_content_length ||
      ec == http::error::bad_transfer_encoding)
    return Problem::bad_framing;
  if (ec == http::error::bad_version) return Problem::http_version;
  return Problem::bad_request;
}

}  // namespace tensorgate::service
