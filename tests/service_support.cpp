#include "service_support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/parse.hpp>

#include <cerrno>
#include <cstring>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "st_builder.hpp"

namespace tgservice {
namespace http = boost::beast::http;

ServiceConfig test_config() {
  ServiceConfig c;
  c.port = 0;
  c.threads = 2;
  c.header_timeout = std::chrono::milliseconds(2000);
  c.body_idle_timeout = std::chrono::milliseconds(2000);
  c.keepalive_timeout = std::chrono::milliseconds(2000);
  c.write_timeout = std::chrono::milliseconds(5000);
  c.linger_timeout = std::chrono::milliseconds(500);
  c.drain_timeout = std::chrono::milliseconds(5000);
  c.min_body_rate_bytes_per_second = 0;  // tests pace their bodies; rate tests turn it on
  c.max_body_bytes = 1ull << 30;
  return c;
}

TestServer::TestServer(const ServiceConfig& config)
    : server_(std::make_unique<tensorgate::service::Server>(config, [this](std::string_view line) {
        const std::lock_guard lock(mutex_);
        lines_.emplace_back(line);
      })) {
  server_->start();
}

TestServer::~TestServer() { stop(); }

void TestServer::stop() {
  if (server_) server_.reset();  // joins the threads and flushes the log
}

std::vector<std::string> TestServer::log_lines() const {
  const std::lock_guard lock(mutex_);
  return lines_;
}

std::string HttpResponse::header(const std::string& name) const {
  const auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

boost::json::value HttpResponse::json() const {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(body, ec);
  return ec ? boost::json::value() : v;
}

std::string HttpResponse::code() const {
  const boost::json::value v = json();
  if (!v.is_object() || !v.as_object().contains("code")) return "";
  const auto& c = v.as_object().at("code");
  return c.is_string() ? std::string(c.as_string()) : "";
}

Client::Client(std::uint16_t port, int receive_timeout_ms) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval tv{receive_timeout_ms / 1000, (receive_timeout_ms % 1000) * 1000};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    ADD_FAILURE() << "connect: " << std::strerror(errno);
}

Client::~Client() {
  if (fd_ >= 0) ::close(fd_);
}

bool Client::send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void Client::shutdown_send() { ::shutdown(fd_, SHUT_WR); }

HttpResponse Client::read_response(std::string_view method, std::string_view target) {
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  parser.skip(method == "HEAD");
  HttpResponse out;
  char buf[65536];
  for (;;) {
    while (!pending_.empty() && !parser.is_done()) {
      boost::system::error_code ec;
      const std::size_t used = parser.put(boost::asio::buffer(pending_), ec);
      pending_.erase(0, used);
      if (ec == http::error::need_more) break;
      if (ec) return out;
      // 1xx answers (100 Continue) are returned like any other
    }
    if (parser.is_done()) break;
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) {
      boost::system::error_code ec;
      if (n == 0 && parser.got_some()) parser.put_eof(ec);
      if (!parser.is_done()) return out;
      break;
    }
    pending_.append(buf, static_cast<std::size_t>(n));
  }
  const auto& res = parser.get();
  out.status = res.result_int();
  for (const auto& f : res) {
    std::string name(f.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers[name] = std::string(f.value());
  }
  out.body = res.body();
  if (!method.empty() && out.status >= 200) {
    const std::string mismatch =
        openapi_mismatch(method, target, out.status, out.header("content-type"), out.body);
    EXPECT_EQ(mismatch, "") << method << " " << target << " -> " << out.status << "\n" << out.body;
  }
  return out;
}

bool Client::closed_by_peer() {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n == 0) return true;
    if (n < 0) return errno == ECONNRESET;
  }
}

std::string head(std::string_view method, std::string_view target,
                 const std::vector<std::string>& fields) {
  std::string out = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: test\r\n";
  for (const std::string& f : fields) out += f + "\r\n";
  return out + "\r\n";
}

std::string chunked(std::string_view body, const std::vector<std::size_t>& sizes) {
  std::string out;
  auto chunk = [&out](std::string_view piece) {
    std::ostringstream size;
    size << std::hex << piece.size();
    out += size.str() + "\r\n" + std::string(piece) + "\r\n";
  };
  for (const std::size_t n : sizes) {
    if (body.empty()) break;
    const std::size_t take = std::min(n, body.size());
    if (take) chunk(body.substr(0, take));
    body.remove_prefix(take);
  }
  if (!body.empty()) chunk(body);
  return out + "0\r\n\r\n";
}

HttpResponse request(std::uint16_t port, std::string_view method, std::string_view target,
                     std::string_view body, const std::vector<std::string>& headers) {
  Client c(port);
  std::vector<std::string> fields = headers;
  if (!body.empty() || method == "POST" || method == "PUT")
    fields.push_back("Content-Length: " + std::to_string(body.size()));
  c.send(head(method, target, fields));
  c.send(body);
  return c.read_response(method, target);
}

HttpResponse get(std::uint16_t port, std::string_view target) {
  return request(port, "GET", target);
}

HttpResponse upload(std::uint16_t port, std::string_view body, std::string_view query) {
  const std::string target = "/v1/validate" + std::string(query.empty() ? "" : "?") + std::string(query);
  return request(port, "POST", target, body);
}

std::string valid_file(std::size_t total, std::string_view tensor) {
  // The header's length depends on the digits of the data length: iterate until they agree.
  std::size_t data = total;
  std::string header;
  for (int i = 0; i < 8; ++i) {
    header = "{\"" + std::string(tensor) + "\":{\"dtype\":\"U8\",\"shape\":[" +
             std::to_string(data) + "],\"data_offsets\":[0," + std::to_string(data) + "]}}";
    const std::size_t padded = (header.size() + 7) / 8 * 8;
    if (total < 8 + padded) throw std::invalid_argument("valid_file: too small for its header");
    const std::size_t need = total - 8 - padded;
    if (need == data) break;
    data = need;
  }
  std::string file = tgtest::st_file(header);
  file.append(total - file.size(), '\x5a');
  return file;
}

std::string invalid_header_file(std::size_t data) {
  return tgtest::st_file(
      "{\"w\":{\"dtype\":\"NOPE\",\"shape\":[" + std::to_string(data) + "],\"data_offsets\":[0," +
          std::to_string(data) + "]}}",
      std::string(data, '\0'));
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &n, EVP_sha256(), nullptr);
  std::string out;
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned i = 0; i < n; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

std::string str(const boost::json::value& v) {
  return v.is_string() ? std::string(v.as_string()) : "<not a string>";
}

double metric(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

double wait_for_metric(std::uint16_t port, const std::string& series, double expected) {
  double value = -1;
  for (int i = 0; i < 1000; ++i) {
    value = metric(get(port, "/metrics").body, series);
    if (value == expected) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return value;
}

}  // namespace tgservice
