#pragma once
// Accepts connections and gives each its own session on its own strand. Past max_connections a
// connection goes to the probes' reserve (probe_reserve.hpp), and past that it gets a short 503
// and is closed, so a crowd of idle clients cannot starve the others of file descriptors, nor
// the probes of an answer.
#include <atomic>
#include <memory>
#include <string>

#include "context.hpp"
#include "net.hpp"
#include "probe_reserve.hpp"

namespace tensorgate::service {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Binds and listens; throws boost::system::system_error when the address is unusable.
  Listener(net::io_context& ioc, ServiceContext& ctx, const tcp::endpoint& endpoint);

  void run();
  void stop();  // stops accepting (from any thread)
  tcp::endpoint local_endpoint() const { return local_; }

 private:
  void accept();
  void on_accept(error_code ec, tcp::socket socket);
  void reject(tcp::socket socket);
  void admit_to_reserve(tcp::socket socket);

  net::io_context& ioc_;
  ServiceContext& ctx_;
  tcp::acceptor acceptor_;
  tcp::endpoint local_;
  net::steady_timer backoff_;
  // Rejections still writing their 503 or draining: past max_rejections_in_flight a connection
  // is closed at once, so a connection flood cannot pile up sockets waiting for their second.
  std::shared_ptr<std::atomic<std::uint32_t>> rejecting_ = std::make_shared<std::atomic<std::uint32_t>>(0);
  // Connections admitted under max_connections and not yet ended (their sessions hold a count).
  std::shared_ptr<std::atomic<std::uint32_t>> serving_ = std::make_shared<std::atomic<std::uint32_t>>(0);
  ProbeReserve reserve_;  // on the acceptor's strand only
};

}  // namespace tensorgate::service
