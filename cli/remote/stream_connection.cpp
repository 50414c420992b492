#include "stream_connection.hpp"

#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>

namespace tensorgate::remote {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

std::string seconds_of(Millis d) {
  const auto ms = d.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

}  // namespace

std::string printable_short(std::string_view text, std::size_t max) {
  std::string out;
  for (const char c : text.substr(0, max)) {
    const auto b = static_cast<unsigned char>(c);
    out += b >= 0x20 && b < 0x7f ? c : '?';
  }
  return out;
}

std::string describe_error(const error_code& ec, bool in_body, const RemoteOptions& options) {
  if (ec == beast::error::timeout)
    return "timed out: nothing from the server for " + seconds_of(options.read_timeout) + " (--read-timeout)";
  if (ec == http::error::end_of_stream || ec == net::error::eof || ec == http::error::partial_message)
    return in_body ? "the connection closed before the body ended" : "the server closed the connection without an answer";
  if (ec == net::error::connection_reset) return "the connection was reset";
  if (ec == http::error::header_limit)
    return "the response head is larger than " + std::to_string(options.max_header_bytes) + " bytes";
  if (ec == http::error::buffer_overflow) return "a chunk header or trailer is larger than the read buffer";
  if (ec.category() == http::make_error_code(http::error::bad_chunk).category())
    return "malformed response: " + ec.message();
  return ec.message();
}

Failure read_fields(const http::response_header<>& header, bool chunked, bool keep_alive,
                    std::optional<std::uint64_t> content_length, ResponseHead& head) {
  head = ResponseHead{};
  head.status = header.result_int();
  head.reason = printable_short(std::string_view(header.reason().data(), header.reason().size()), 64);
  head.keep_alive = keep_alive;
  head.chunked = chunked;
  head.content_length = content_length;
  const struct {
    http::field field;
    std::optional<std::string>* slot;
  } singles[] = {{http::field::content_range, &head.content_range}, {http::field::etag, &head.etag},
                 {http::field::last_modified, &head.last_modified}, {http::field::location, &head.location},
                 {http::field::retry_after, &head.retry_after}, {http::field::content_encoding, &head.content_encoding}};
  for (const auto& s : singles) {
    const auto range = header.equal_range(s.field);
    for (auto it = range.first; it != range.second; ++it) {
      if (*s.slot) {
        head.repeated = std::string(http::to_string(s.field));
        break;
      }
      *s.slot = std::string(it->value());
    }
  }
  // Beast 1.81 frames these wrongly (docs/architecture.md): refused, as nginx refuses them.
  const auto te = header.find(http::field::transfer_encoding);
  if (te != header.end()) {
    if (header.count(http::field::transfer_encoding) != 1 || !iequals(te->value(), "chunked"))
      return "the server's Transfer-Encoding is not just chunked";
    if (header.version() != 11) return "a chunked body in an HTTP/1.0 response";
    if (header.count(http::field::content_length)) return "both Transfer-Encoding and Content-Length";
  }
  if (head.repeated) return "the server sent " + *head.repeated + " twice";
  return std::nullopt;
}

}  // namespace tensorgate::remote
