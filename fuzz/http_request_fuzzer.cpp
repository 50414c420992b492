// Raw bytes as one client connection into the service's request handling: the same Session code
// the server runs, over an in-memory stream (tensorgate/service/in_memory.hpp). No sockets, no
// threads, no clocks: deterministic. The first input byte picks how many bytes each read gets,
// so the corpus also explores requests split at awkward places.
//
// Beyond "no crash, no sanitizer report", every byte the server wrote must parse as a sequence of
// HTTP/1.x responses whose statuses the service documents (docs/openapi.json).
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tensorgate/service/config.hpp"
#include "tensorgate/service/in_memory.hpp"

namespace {

namespace http = boost::beast::http;
using tensorgate::service::ServiceConfig;

// Small limits so inputs reach every limit quickly.
const ServiceConfig& fuzz_config() {
  static const ServiceConfig config = [] {
    ServiceConfig c;
    c.max_request_header_bytes = 2048;
    c.read_buffer_bytes = 4096;
    c.max_body_bytes = 1u << 16;
    c.max_safetensors_header_bytes = 1u << 12;
    c.header_memory_budget_bytes = 1u << 13;
    c.linger_max_bytes = 1u << 12;
    c.min_body_rate_bytes_per_second = 0;  // no clock in the in-memory stream
    c.keepalive_max_requests = 16;
    return c;
  }();
  return config;
}

bool documented(unsigned status) {
  switch (status) {
    case 100: case 200: case 304: case 400: case 404: case 405: case 408: case 411: case 413: case 417: case 422:
    case 431: case 501: case 503: case 505:
      return true;
    default:
      return false;
  }
}

// One response from the front of `out`; `bodiless` for an answer to HEAD (its Content-Length
// is the GET's, and no body follows). Returns the bytes used, 0 when it does not parse.
std::size_t parse_one(std::string_view out, bool bodiless) {
  http::response_parser<http::string_body> parser;
  parser.body_limit(1u << 24);
  parser.eager(true);
  parser.skip(bodiless);
  boost::system::error_code ec;
  const std::size_t used = parser.put(boost::asio::buffer(out.data(), out.size()), ec);
  if (ec || !parser.is_done() || !documented(parser.get().result_int())) return 0;
  return used;
}

// Parses `out` as consecutive responses; aborts on anything else. The requests are not parsed
// here, so an answer is taken as HEAD's when no body follows its header (no body of ours starts
// with a status line).
void check_responses(std::string_view out) {
  while (!out.empty()) {
    const std::size_t head = parse_one(out, true);
    if (head == 0) std::abort();
    const std::string_view rest = out.substr(head);
    const bool bodiless = rest.empty() || rest.starts_with("HTTP/1.");
    const std::size_t used = bodiless ? head : parse_one(out, false);
    if (used == 0) std::abort();
    out.remove_prefix(used);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t read_size = data[0] == 0 ? 0 : data[0] % 64 + 1;  // 0: all at once
  const std::string_view client(reinterpret_cast<const char*>(data + 1), size - 1);
  check_responses(tensorgate::service::serve_in_memory(fuzz_config(), client, read_size));
  return 0;
}
