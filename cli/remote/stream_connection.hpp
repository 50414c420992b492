#pragma once
// Connection over any Beast stream: the response handling every transport shares (TCP, the TLS
// helper's socket, and the fuzzer's in-memory stream). Operations are Asio's asynchronous ones,
// run to completion on the worker's own io_context, so every read and write has a deadline (the
// stream's timer) while the code reads as sequential. Include only where a transport is
// instantiated.
#include <algorithm>
#include <chrono>

#include "beast.hpp"
#include "connection.hpp"
#include "remote_options.hpp"

namespace tensorgate::remote {

// How a stream keeps time: Beast's basic_stream (TCP, or the TLS helper's socket) has a timer;
// the in-memory stream has none (deadlines are no-ops, and the fuzzer stays deterministic).
template <class Stream>
struct StreamClock {
  static constexpr bool timed = true;
  static void arm(Stream& s, Millis d) { beast::get_lowest_layer(s).expires_after(d); }
  static void disarm(Stream& s) { beast::get_lowest_layer(s).expires_never(); }
};

std::string describe_error(const error_code& ec, bool in_body, const RemoteOptions& options);

// Non-printable bytes as '?', at most `max` bytes: a server's reason phrase in an error.
std::string printable_short(std::string_view text, std::size_t max);
// The head of a parsed response, or why it cannot be used (framing Beast 1.81 gets wrong).
Failure read_fields(const http::response_header<>& header, bool chunked, bool keep_alive,
                    std::optional<std::uint64_t> content_length, ResponseHead& head);

template <class Stream>
class StreamConnection final : public Connection {
 public:
  StreamConnection(net::io_context& ioc, Stream stream, const RemoteOptions& options)
      : ioc_(ioc), stream_(std::move(stream)), options_(options),
        buffer_(options.max_header_bytes + 64 * 1024) {}

  Failure send(const OutgoingRequest& r) override {
    http::request<http::empty_body> request{http::verb::get, r.target, 11};
    request.set(http::field::host, r.host);
    for (const auto& [name, value] : r.headers) request.insert(name, value);
    parser_.reset();
    exchange_start_ = std::chrono::steady_clock::now();
    exchange_bytes_ = 0;
    std::size_t n = 0;
    const error_code ec = run([&](auto handler) { http::async_write(stream_, request, handler); }, n);
    return ec ? Failure(describe_error(ec, false, options_)) : std::nullopt;
  }

  Failure read_head(ResponseHead& head) override {
    for (unsigned interim = 0;; ++interim) {
      parser_.emplace();
      parser_->header_limit(options_.max_header_bytes);
      parser_->body_limit(boost::none);  // bounded by what the caller reads, not by Beast
      std::size_t n = 0;
      const error_code ec = run([&](auto handler) { http::async_read_header(stream_, buffer_, *parser_, handler); }, n);
      count(n);
      if (ec) return describe_error(ec, false, options_);
      if (auto slow = too_slow()) return slow;
      const unsigned status = parser_->get().result_int();
      if (status == 101) return "the server switched protocols (HTTP 101)";
      if (status >= 200) {
        return read_fields(parser_->get().base(), parser_->chunked(), parser_->keep_alive(),
                           parser_->content_length() ? std::optional(*parser_->content_length()) : std::nullopt, head);
      }
      if (interim + 1 >= options_.max_interim_responses)
        return "more than " + std::to_string(options_.max_interim_responses) + " interim (1xx) responses";
    }
  }

  Failure read_body(std::span<std::byte> out, std::size_t& n) override {
    n = 0;
    if (!parser_ || parser_->is_done() || out.empty()) return std::nullopt;
    auto& body = parser_->get().body();
    body.data = out.data();
    body.size = out.size();
    while (!parser_->is_done() && body.size == out.size()) {
      std::size_t used = 0;
      error_code ec = run([&](auto handler) { http::async_read_some(stream_, buffer_, *parser_, handler); }, used);
      count(used);
      if (ec == http::error::need_buffer) ec = {};
      if (ec) return describe_error(ec, true, options_);
      if (auto slow = too_slow()) return slow;
    }
    n = out.size() - body.size;
    body.data = nullptr;
    body.size = 0;
    return std::nullopt;
  }

  bool reusable() const override { return parser_ && parser_->is_done() && parser_->keep_alive(); }
  std::uint64_t bytes_received() const override { return received_; }

  Stream& stream() { return stream_; }

 private:
  // Starts one asynchronous operation and runs the io_context until it completes.
  template <class Start>
  error_code run(Start&& start, std::size_t& n) {
    error_code result = net::error::operation_aborted;
    if constexpr (StreamClock<Stream>::timed) StreamClock<Stream>::arm(stream_, options_.read_timeout);
    start([&](const error_code& ec, std::size_t bytes) {
      result = ec;
      n = bytes;
    });
    ioc_.restart();
    ioc_.run();
    if constexpr (StreamClock<Stream>::timed) StreamClock<Stream>::disarm(stream_);
    return result;
  }

  void count(std::size_t n) {
    received_ += n;
    exchange_bytes_ += n;
  }

  // After a read_timeout's grace, an exchange must average min_bytes_per_second.
  Failure too_slow() const {
    if constexpr (!StreamClock<Stream>::timed) {
      return std::nullopt;
    } else {
      const auto elapsed = std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - exchange_start_);
      if (elapsed <= options_.read_timeout || options_.min_bytes_per_second == 0) return std::nullopt;
      const auto ms = static_cast<std::uint64_t>(elapsed.count());
      if (exchange_bytes_ >= options_.min_bytes_per_second * ms / 1000) return std::nullopt;
      return "the server sends slower than " + std::to_string(options_.min_bytes_per_second) + " bytes/s";
    }
  }

  net::io_context& ioc_;
  Stream stream_;
  const RemoteOptions& options_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<http::buffer_body>> parser_;
  std::uint64_t received_ = 0;
  std::uint64_t exchange_bytes_ = 0;
  std::chrono::steady_clock::time_point exchange_start_{};
};

}  // namespace tensorgate::remote
