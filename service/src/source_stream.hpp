#pragma once
// A connection whose client is a function: every read asks `source` for the next bytes, every
// write hands its bytes to `sink`. No kernel, no socket, no clock. serve_from_source runs the
// real Session over it with the service's worker threads, so the service benchmark can measure
// a streamed upload without loopback TCP (bench/service_bench.sh says why that matters).
//
// Each operation completes at once, through a post to the connection's executor (an Asio
// completion never runs inside its initiating call). The stream holds work on its io_context
// for as long as it lives: a Session that waits for a worker has no read pending, and run()
// must not return then.
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "net.hpp"
#include "stream_ops.hpp"

namespace tensorgate::service {

class SourceStream {
 public:
  // Fills up to `capacity` bytes at `dst`; 0 when the client has nothing more (end of stream).
  using Source = std::function<std::size_t(char* dst, std::size_t capacity)>;
  using Sink = std::function<void(std::string_view)>;
  using executor_type = net::any_io_executor;

  SourceStream(net::io_context& ioc, Source source, Sink sink)
      : ex_(ioc.get_executor()), work_(ioc.get_executor()), source_(std::move(source)), sink_(std::move(sink)) {}

  executor_type get_executor() const { return ex_; }

  template <class MutableBuffers, class Handler>
  auto async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    return net::async_initiate<Handler, void(error_code, std::size_t)>(
        [this](auto h, const MutableBuffers& b) {
          std::size_t n = 0;
          bool asked = false;  // a read of no bytes is no end of stream
          for (auto it = net::buffer_sequence_begin(b); it != net::buffer_sequence_end(b); ++it) {
            const net::mutable_buffer piece = *it;
            if (piece.size() == 0) continue;
            asked = true;
            if (ended_) break;
            const std::size_t got = source_(static_cast<char*>(piece.data()), piece.size());
            n += got;
            if (got == 0) ended_ = true;
            if (got < piece.size()) break;
          }
          const error_code ec = asked && n == 0 ? error_code(net::error::eof) : error_code();
          net::post(ex_, beast::bind_front_handler(std::move(h), ec, n));
        },
        handler, buffers);
  }

  template <class ConstBuffers, class Handler>
  auto async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    return net::async_initiate<Handler, void(error_code, std::size_t)>(
        [this](auto h, const ConstBuffers& b) {
          std::size_t n = 0;
          for (auto it = net::buffer_sequence_begin(b); it != net::buffer_sequence_end(b); ++it) {
            const net::const_buffer piece = *it;
            sink_(std::string_view(static_cast<const char*>(piece.data()), piece.size()));
            n += piece.size();
          }
          net::post(ex_, beast::bind_front_handler(std::move(h), error_code(), n));
        },
        handler, buffers);
  }

  void close() {
    ended_ = true;
    work_.reset();
  }

 private:
  executor_type ex_;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work_;
  Source source_;
  Sink sink_;
  bool ended_ = false;  // the source said 0, or the server closed: every later read is EOF
};

// No clock: deadlines are no-ops; closing ends the reads and lets the io_context finish.
template <>
struct StreamOps<SourceStream> {
  static void set_deadline(SourceStream&, Millis) {}
  static void shutdown_send(SourceStream&) {}
  static void close(SourceStream& s) { s.close(); }
};

}  // namespace tensorgate::service
