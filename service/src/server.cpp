#include "tensorgate/service/server.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "access_log.hpp"
#include "context.hpp"
#include "listener.hpp"
#include "net.hpp"

namespace tensorgate::service {
namespace {

// How often a drain checks whether the uploads in flight have finished.
constexpr std::chrono::milliseconds kDrainPoll{20};
using Clock = std::chrono::steady_clock;

unsigned thread_count(const ServiceConfig& cfg) {
  return cfg.threads ? cfg.threads : std::max(1u, std::thread::hardware_concurrency());
}

tcp::endpoint resolve(const ServiceConfig& cfg) {
  error_code ec;
  const net::ip::address address = net::ip::make_address(cfg.host, ec);
  if (!ec) return {address, cfg.port};
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve(cfg.host, std::to_string(cfg.port), ec);
  if (ec || results.empty()) throw std::runtime_error("cannot resolve host '" + cfg.host + "'");
  return *results.begin();
}

}  // namespace

// Members are destroyed in reverse order: the io_context (and with it every session) goes before
// the context and the log the sessions use.
struct Server::Impl {
  Impl(const ServiceConfig& cfg, const LogLineFn& fn)
      : log(fn, cfg.log_level), ctx(cfg, &log), ioc(static_cast<int>(thread_count(cfg))),
        workers(worker_thread_count(cfg)),
        drain_timer(ioc) {
    ctx.workers = &workers;
  }

  void run_loop();
  void begin_drain();
  void poll_drain();

  AccessLog log;
  ServiceContext ctx;
  net::io_context ioc;
  net::thread_pool workers;  // destroyed (joined) before the io_context its jobs post back to
  std::shared_ptr<Listener> listener;
  std::optional<net::signal_set> signals;
  net::steady_timer drain_timer;
  Clock::time_point drain_deadline{};
  std::vector<std::thread> threads;
  std::mutex join_mutex;
};

void Server::Impl::run_loop() {
  for (;;) {
    try {
      ioc.run();
      return;
    } catch (const std::exception& e) {
      // A handler threw (allocation failure): that connection is lost, the service goes on.
      log.warn("handler-exception", e.what());
    }
  }
}

void Server::Impl::begin_drain() {
  if (ctx.metrics.draining.exchange(true)) return;
  if (listener) listener->stop();
  log.event("draining", "uploads_in_flight", std::to_string(ctx.uploads_in_flight()));
  drain_deadline = Clock::now() + ctx.config.drain_timeout;
  poll_drain();
}

void Server::Impl::poll_drain() {
  const bool idle = ctx.uploads_in_flight() == 0;
  if (idle || Clock::now() >= drain_deadline) {
    log.event("stopped", "reason", idle ? "drained" : "drain-timeout");
    ioc.stop();
    return;
  }
  drain_timer.expires_after(kDrainPoll);
  drain_timer.async_wait([this](error_code ec) {
    if (!ec) poll_drain();
  });
}

Server::Server(const ServiceConfig& config, LogLineFn log_line)
    : impl_(std::make_unique<Impl>(config, log_line)) {}

Server::~Server() { stop(); }

void Server::start() {
  if (const std::string error = check_config(impl_->ctx.config); !error.empty())
    throw std::runtime_error(error);
  const tcp::endpoint endpoint = resolve(impl_->ctx.config);
  try {
    impl_->listener = std::make_shared<Listener>(impl_->ioc, impl_->ctx, endpoint);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + endpoint.address().to_string() + ":" +
                             std::to_string(endpoint.port()) + ": " + e.code().message());
  }
  impl_->listener->run();
  const tcp::endpoint local = impl_->listener->local_endpoint();
  impl_->log.event("listening", "address",
                   local.address().to_string() + ":" + std::to_string(local.port()));
  for (unsigned i = 0; i < thread_count(impl_->ctx.config); ++i)
    impl_->threads.emplace_back([impl = impl_.get()] { impl->run_loop(); });
}

std::uint16_t Server::port() const {
  return impl_->listener ? impl_->listener->local_endpoint().port() : 0;
}

void Server::begin_drain() {
  net::post(impl_->ioc, [impl = impl_.get()] { impl->begin_drain(); });
}

void Server::handle_signals() {
  impl_->signals.emplace(impl_->ioc, SIGINT, SIGTERM);
  // The first signal drains; a second one stops at once.
  impl_->signals->async_wait([impl = impl_.get()](error_code ec, int) {
    if (ec) return;
    impl->begin_drain();
    impl->signals->async_wait([impl](error_code e, int) {
      if (!e) impl->ioc.stop();
    });
  });
}

void Server::wait() {
  const std::lock_guard lock(impl_->join_mutex);
  for (std::thread& t : impl_->threads)
    if (t.joinable()) t.join();
}

void Server::stop() {
  impl_->ioc.stop();
  wait();
}

}  // namespace tensorgate::service
