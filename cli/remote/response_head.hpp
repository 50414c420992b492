#pragma once
// What a response's head says, read before any of its body: the fields the remote checks act
// on, and the parsers for the ones with a grammar (Content-Range, Retry-After, ETag). Pure
// functions: the fuzzer and the unit tests reach them without a connection.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::remote {

struct ResponseHead {
  unsigned status = 0;
  std::string reason;  // printable, at most 64 bytes
  std::optional<std::uint64_t> content_length;
  bool chunked = false;
  bool keep_alive = false;
  // Single-valued fields; a response that repeats one of them is refused (`repeated`), since
  // two Content-Range or ETag values cannot both be believed.
  std::optional<std::string> content_range, etag, last_modified, location, retry_after, content_encoding;
  std::optional<std::string> repeated;  // the name of a field sent twice
};

// Content-Range of a single byte range (RFC 9110, section 14.4): "bytes 0-99/1000",
// "bytes 0-99/*" (total unknown), or "bytes */1000" (416: nothing satisfied).
struct ContentRange {
  std::optional<std::uint64_t> first, last;  // both or neither
  std::optional<std::uint64_t> total;
};
// Nothing for anything else: other units, last < first, last >= total, numbers past 2^64.
std::optional<ContentRange> parse_content_range(std::string_view text);

// Retry-After (RFC 9110, section 10.2.3): delta-seconds, or an HTTP-date counted from `now`
// (a date in the past is 0). Nothing when it is neither.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view text,
                                                      std::chrono::system_clock::time_point now);

// A strong entity tag ("abc", not W/"abc"): only those may go in If-Match and If-Range.
bool is_strong_etag(std::string_view etag);

// "HTTP 404 Not Found": the status and the server's reason phrase, printable and short.
std::string status_text(const ResponseHead& head);

}  // namespace tensorgate::remote
