#include "listener.hpp"

#include <boost/asio/write.hpp>

#include <array>

#include "problem.hpp"
#include "session.hpp"

namespace tensorgate::service {
namespace {

std::string endpoint_text(const tcp::socket& socket) {
  error_code ec;
  const tcp::endpoint ep = socket.remote_endpoint(ec);
  if (ec) return "unknown";
  return ep.address().to_string() + ":" + std::to_string(ep.port());
}

// Writes a fixed 503, half-closes and closes: no request is read, so the answer is the same for
// every client and costs one small write. The deadline bounds the whole exchange.
class Rejection : public std::enable_shared_from_this<Rejection> {
 public:
  Rejection(beast::tcp_stream stream, std::string text, std::shared_ptr<std::atomic<std::uint32_t>> in_flight)
      : stream_(std::move(stream)), text_(std::move(text)), in_flight_(std::move(in_flight)) {
    ++*in_flight_;
  }
  ~Rejection() { --*in_flight_; }

  void run() {
    stream_.expires_after(std::chrono::seconds(1));
    net::async_write(stream_, net::buffer(text_),
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       if (ec) return;
                       self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
                       self->drain();
                     });
  }

 private:
  void drain() {
    stream_.async_read_some(net::buffer(scratch_),
                            [self = shared_from_this()](error_code ec, std::size_t) {
                              if (!ec) self->drain();
                            });
  }

  beast::tcp_stream stream_;
  std::string text_;
  std::array<char, 1024> scratch_{};
  std::shared_ptr<std::atomic<std::uint32_t>> in_flight_;
};

// The 503 for a connection past every cap, with its own request id (the answer is logged and
// a client reporting it can be found).
std::string rejection_text(ServiceContext& ctx) {
  const std::string id = ctx.request_id({});
  Response res = make_problem_response(Problem::too_many_connections, {id, {}, std::nullopt, {}}, 11,
                                       ctx.config.retry_after_seconds);
  res.keep_alive(false);
  res.set("X-Request-Id", id);
  std::string out = "HTTP/1.1 503 Service Unavailable\r\n";
  for (const auto& f : res) out.append(f.name_string()).append(": ").append(f.value()).append("\r\n");
  return out.append("\r\n").append(res.body());
}

// A place under max_connections, held by its session for the session's whole life.
class ServingCount {
 public:
  explicit ServingCount(std::shared_ptr<std::atomic<std::uint32_t>> n) : n_(std::move(n)) { ++*n_; }
  ~ServingCount() { --*n_; }
  ServingCount(const ServingCount&) = delete;
  ServingCount& operator=(const ServingCount&) = delete;

 private:
  std::shared_ptr<std::atomic<std::uint32_t>> n_;
};

}  // namespace

Listener::Listener(net::io_context& ioc, ServiceContext& ctx, const tcp::endpoint& endpoint)
    : ioc_(ioc), ctx_(ctx), acceptor_(net::make_strand(ioc)), backoff_(acceptor_.get_executor()),
      reserve_(ctx.config.probe_connections) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
  local_ = acceptor_.local_endpoint();
}

void Listener::run() { net::dispatch(acceptor_.get_executor(), [self = shared_from_this()] { self->accept(); }); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    error_code ec;
    self->acceptor_.close(ec);
    self->backoff_.cancel();
  });
}

void Listener::accept() {
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    // Out of descriptors or memory: back off briefly instead of spinning on the error.
    ctx_.metrics.rejected.add(label("reason", "accept-error"));
    backoff_.expires_after(std::chrono::milliseconds(50));
    backoff_.async_wait([self = shared_from_this()](error_code e) {
      if (!e) self->accept();
    });
    return;
  }
  socket.set_option(tcp::no_delay(true), ec);
  if (serving_->load() < ctx_.config.max_connections) {
    std::string remote = endpoint_text(socket);
    std::make_shared<Session<beast::tcp_stream>>(ctx_, beast::tcp_stream(std::move(socket)), std::move(remote),
                                                 nullptr, std::make_shared<ServingCount>(serving_))
        ->run();
  } else {
    admit_to_reserve(std::move(socket));
  }
  accept();
}

// Past max_connections: a place in the probes' reserve, made by evicting an idle connection if
// need be, else the fixed 503.
void Listener::admit_to_reserve(tcp::socket socket) {
  ProbeReserve::Admission a = reserve_.admit();
  if (a.evicted_another) ctx_.metrics.rejected.add(label("reason", "probe-reserve-evicted"));
  if (!a.seat) return reject(std::move(socket));
  std::string remote = endpoint_text(socket);
  auto session = std::make_shared<Session<beast::tcp_stream>>(ctx_, beast::tcp_stream(std::move(socket)),
                                                              std::move(remote), a.seat);
  a.seat->set_evict([weak = std::weak_ptr(session)] {
    if (const auto s = weak.lock()) s->evict();
  });
  session->run();
}

void Listener::reject(tcp::socket socket) {
  ctx_.metrics.rejected.add(label("reason", "max-connections"));
  if (rejecting_->load() >= ctx_.config.max_rejections_in_flight) {
    error_code ec;
    socket.close(ec);  // the flood outruns the answers: close without one
    return;
  }
  std::make_shared<Rejection>(beast::tcp_stream(std::move(socket)), rejection_text(ctx_), rejecting_)->run();
}

}  // namespace tensorgate::service
