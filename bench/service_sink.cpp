#include "service_sink.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <optional>
#include <thread>

namespace tgbench {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using error_code = beast::error_code;

namespace {

// Counts the body bytes and keeps none: the service's UploadBody without the Upload.
struct NullBody {
  struct value_type {
    std::uint64_t bytes = 0;
  };
  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& v) : v_(v) {}
    void init(const boost::optional<std::uint64_t>&, error_code& ec) { ec = {}; }
    template <class Buffers>
    std::size_t put(const Buffers& buffers, error_code& ec) {
      std::size_t n = 0;
      for (const auto b : beast::buffers_range_ref(buffers)) n += b.size();
      v_.bytes += n;
      ec = {};
      return n;
    }
    void finish(error_code& ec) { ec = {}; }

   private:
    value_type& v_;
  };
};

class SinkSession : public std::enable_shared_from_this<SinkSession> {
 public:
  explicit SinkSession(tcp::socket s) : stream_(std::move(s)), buffer_(64 * 1024) {}
  void run() { read_header(); }

 private:
  void read_header() {
    head_.emplace();
    head_->body_limit(boost::none);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read_header(stream_, buffer_, *head_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec) return;
      self->body_.emplace(std::move(*self->head_));
      self->buffer_.reserve(64 * 1024);
      self->read_body();
    });
  }
  void read_body() {
    if (body_->is_done()) return answer();
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read_some(stream_, buffer_, *body_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec) return;
      self->read_body();
    });
  }
  void answer() {
    res_.emplace(http::status::ok, 11);
    res_->body() = "{\"bytes\":" + std::to_string(body_->get().body().bytes) + "}\n";
    res_->prepare_payload();
    res_->keep_alive(body_->keep_alive());
    http::async_write(stream_, *res_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (!ec && self->res_->keep_alive()) self->read_header();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> head_;
  std::optional<http::request_parser<NullBody>> body_;
  std::optional<http::response<http::string_body>> res_;
};

}  // namespace

struct NullSink::Impl {
  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc, {net::ip::make_address("127.0.0.1"), 0}};
  std::thread thread;

  void accept() {
    acceptor.async_accept([this](error_code ec, tcp::socket s) {
      if (ec) return;
      std::make_shared<SinkSession>(std::move(s))->run();
      accept();
    });
  }
};

NullSink::NullSink() : impl_(std::make_unique<Impl>()) {
  impl_->accept();
  impl_->thread = std::thread([impl = impl_.get()] { impl->ioc.run(); });
}

NullSink::~NullSink() {
  impl_->ioc.stop();
  impl_->thread.join();
}

std::uint16_t NullSink::port() const { return impl_->acceptor.local_endpoint().port(); }

}  // namespace tgbench
