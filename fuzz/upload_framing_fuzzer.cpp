// A large upload's framing through the service's session over an in-memory stream: past its
// first MiB the body is read straight into the digest's blocks, and a chunked body's pieces are
// moved down over the chunk headers between them (service/src/upload_digest.hpp, "Read in
// place"). That rests on Beast's parser never looking back at bytes it has passed; this target
// holds it to the answer, with the real parser, at every framing the input picks.
//
// The input is only the framing (FuzzedDataProvider): the body's size (just under the first MiB
// to two blocks past it), Content-Length or chunked, each chunk's size and extension, a
// trailer, how many bytes each read gets, and whether a request follows in the same stream. The
// file itself is generated: a valid safetensors file of one U8 tensor.
//
// Beyond "no crash, no sanitizer report": the upload is answered 200, valid, with the SHA-256 of
// exactly the file's bytes and the file's size received, and a request pipelined behind it is
// answered too (the bytes read past the body go back to the session's buffer).
#include <fuzzer/FuzzedDataProvider.h>

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tensorgate/safetensors/writer.hpp"
#include "tensorgate/service/config.hpp"
#include "tensorgate/service/in_memory.hpp"
#include "tensorgate/sha256.hpp"

namespace {

namespace http = boost::beast::http;
using tensorgate::service::ServiceConfig;

constexpr std::size_t kMiB = std::size_t{1} << 20;
// A chunk extension stays under the read buffer (a longer one is a 400, service_validate_test).
constexpr std::size_t kReadBuffer = 4096;
constexpr std::size_t kMaxExtension = 3000;
constexpr int kMaxChunks = 2000;  // then the rest of the body is one chunk

const ServiceConfig& fuzz_config() {
  static const ServiceConfig config = [] {
    ServiceConfig c;
    c.read_buffer_bytes = kReadBuffer;
    c.max_body_bytes = 16 * kMiB;
    c.min_body_rate_bytes_per_second = 0;  // no clock in the in-memory stream
    c.min_average_chunk_bytes = 0;         // tiny chunks are the point here
    return c;
  }();
  return config;
}

// One U8 tensor of `data` bytes, by the canonical writer.
std::string safetensors_file(std::size_t data, std::uint8_t seed) {
  const tensorgate::TensorSpec spec{"x", tensorgate::Dtype::U8, {data}, {}};
  std::uint64_t data_length = 0;
  std::string file = tensorgate::write_safetensors_header({&spec, 1}, {}, data_length).bytes;
  const std::size_t start = file.size();
  file.resize(start + data);
  for (std::size_t i = 0; i < data; ++i) file[start + i] = static_cast<char>((i * 131 + i / 4099 + seed) & 0xff);
  return file;
}

std::string hex(std::size_t v) {
  char buf[2 * sizeof v];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, 16).ptr);
}

std::string chunked_body(FuzzedDataProvider& in, std::string_view file) {
  std::string out;
  for (int chunks = 0; !file.empty(); ++chunks) {
    std::size_t take = file.size();
    if (chunks < kMaxChunks && in.remaining_bytes() > 0)
      take = std::min(take, in.ConsumeIntegralInRange<std::size_t>(1, 300'000));
    const std::size_t ext = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::size_t>(0, kMaxExtension) : 0;
    out += hex(take);
    if (ext) out += ";e=" + std::string(ext, 'a');
    out += "\r\n";
    out += file.substr(0, take);
    out += "\r\n";
    file.remove_prefix(take);
  }
  out += "0\r\n";
  if (in.ConsumeBool()) out += "X-Trailer: " + std::string(in.ConsumeIntegralInRange<std::size_t>(1, 1000), 't') + "\r\n";
  return out + "\r\n";
}

// One response from the front of `out` into `parser`; the bytes used, 0 when it does not parse.
std::size_t parse_one(std::string_view out, http::response_parser<http::string_body>& parser) {
  parser.body_limit(1u << 24);
  parser.eager(true);
  boost::system::error_code ec;
  const std::size_t used = parser.put(boost::asio::buffer(out.data(), out.size()), ec);
  return ec || !parser.is_done() ? 0 : used;
}

void check_answers(std::string_view out, const std::string& file, bool pipelined) {
  http::response_parser<http::string_body> upload;
  const std::size_t used = parse_one(out, upload);
  if (used == 0 || upload.get().result_int() != 200) std::abort();
  const std::string& report = upload.get().body();
  const std::string sha = "\"sha256\":\"" + tensorgate::Sha256::hex_of(file.data(), file.size()) + "\"";
  const std::string received = "\"bytes_received\":" + std::to_string(file.size()) + ",";
  if (report.find(sha) == std::string::npos || report.find(received) == std::string::npos ||
      report.find("\"valid\":true") == std::string::npos)
    std::abort();
  out.remove_prefix(used);
  if (!pipelined) {
    if (!out.empty()) std::abort();
    return;
  }
  http::response_parser<http::string_body> next;
  if (parse_one(out, next) != out.size() || next.get().result_int() != 200) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::size_t body = in.ConsumeIntegralInRange<std::size_t>(kMiB - 70'000, 3 * kMiB);
  const std::string file = safetensors_file(body, in.ConsumeIntegral<std::uint8_t>());
  // All at once, or reads of 61 bytes up: smaller ones cost the harness a second per input.
  const std::size_t read_size = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<std::size_t>(61, 2 * kMiB);
  const bool pipelined = in.ConsumeBool();
  std::string request = "POST /v1/validate HTTP/1.1\r\nHost: fuzz\r\n";
  if (in.ConsumeBool()) {
    request += "Transfer-Encoding: chunked\r\n\r\n" + chunked_body(in, file);
  } else {
    request += "Content-Length: " + std::to_string(file.size()) + "\r\n\r\n" + file;
  }
  if (pipelined) request += "GET /livez HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n";
  check_answers(tensorgate::service::serve_in_memory(fuzz_config(), request, read_size), file, pipelined);
  return 0;
}
