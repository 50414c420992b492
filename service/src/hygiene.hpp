#pragma once
// Request checks Beast 1.81 does not make itself (docs/architecture.md, "Boost 1.81, what we know about our
// dependencies"), applied to the header before any body byte is read, as nginx does.
#include <optional>

#include "net.hpp"
#include "problem.hpp"

namespace tensorgate::service {

using RequestHeader = http::request_header<>;
// A request's header, parsed by a new parser for each request; the route's exchange takes it
// over to read the body.
using HeadParser = http::request_parser<http::empty_body>;

// Body framing: Transfer-Encoding only as exactly `chunked`, never with Content-Length, never in
// HTTP/1.0; HTTP/1.0 or 1.1 only; one Host in HTTP/1.1. Any answer here closes the connection,
// since the end of the body is not known.
std::optional<Problem> check_framing(const RequestHeader& h);

// Expect: only `100-continue` (case-insensitive); HTTP/1.0 expectations are ignored (RFC 9110
// 10.1.1).
std::optional<Problem> check_expect(const RequestHeader& h);

// The client waits for `100 Continue` before sending the body.
bool expects_continue(const RequestHeader& h);

// The request declares a body (Content-Length above 0, or chunked).
bool declares_body(const RequestHeader& h);

// A Beast parse error of the header as a problem: 431 for size, bad-framing for the length
// fields it does check, 400 otherwise.
Problem problem_for_parse_error(const error_code& ec);

}  // namespace tensorgate::service
