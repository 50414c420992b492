// The executable's side of https (tls_client.hpp): finds tensorgate-tls (helper_executables.hpp:
// beside the executable, else in ../lib/tensorgate/); starts it per connection on one end of a
// socket pair, waits for its status line, then runs the usual HTTP connection over the socket.
#include <poll.h>
#include <unistd.h>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/beast/core/basic_stream.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <vector>

#include "child_process.hpp"
#include "helper_executables.hpp"
#include "stream_connection.hpp"
#include "tcp_connect.hpp"
#include "tls_client.hpp"
#include "tls_helper_protocol.hpp"

namespace tensorgate::remote {
namespace {

using LocalStream = beast::basic_stream<net::local::stream_protocol>;

// The helper's path, or nothing with `error` saying where it was looked for.
std::optional<std::string> find_helper(std::string& error) {
  const std::string name(tls_helper::kName);
  cli::HelperLookup found = cli::find_helper_executable(name);
  if (!found.path)
    error = "https needs the TLS helper " + name + ", found neither at " + found.beside + " nor at " + found.in_lib +
            " (install it beside the executable)";
  return std::move(found.path);
}

// A started helper and its status line. The process is reaped when this goes, whatever it is
// doing then (child_process.hpp).
class Helper {
 public:
  bool start(const std::string& path, const std::vector<std::string>& args, std::string& error) {
    if (child_.start(path, args, error)) return true;
    error = "cannot start the TLS helper " + path + ": " + error;
    return false;
  }

  // The helper's status line: nothing when it said "ok", else its error. Waits at most `limit`.
  std::optional<std::string> status(Millis limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    std::string line;
    while (line.size() < tls_helper::kMaxStatusBytes) {
      const auto left = std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
      pollfd p{child_.socket(), POLLIN, 0};
      const int ready = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return "the TLS helper did not answer within " + whole_seconds(limit);
      char c = 0;
      const ssize_t n = ::read(child_.socket(), &c, 1);
      if (n < 0 && errno == EINTR) continue;
      // Ended, or said all it says before its relay: it ends by itself once its socket closes.
      if (n <= 0 || c == '\n') child_.answered();
      if (n <= 0) return std::string("the TLS helper ended without an answer");
      if (c == '\n') {
        if (line == tls_helper::kOk) return std::nullopt;
        if (line.starts_with(tls_helper::kErrorPrefix)) return line.substr(tls_helper::kErrorPrefix.size());
        return "the TLS helper gave an answer this build does not know";
      }
      line.push_back(c);
    }
    return "the TLS helper's answer is too long";
  }

  // The socket, for the connection to own from here.
  int release_socket() { return child_.release_socket(); }

 private:
  ChildProcess child_;
};

// HTTP over the helper's socket; the helper goes with the connection, after the socket.
class HelperConnection final : public Connection {
 public:
  HelperConnection(Helper helper, std::unique_ptr<Connection> inner)
      : helper_(std::move(helper)), inner_(std::move(inner)) {}

  Failure send(const OutgoingRequest& r) override { return inner_->send(r); }
  Failure read_head(ResponseHead& head) override { return inner_->read_head(head); }
  Failure read_body(std::span<std::byte> out, std::size_t& n) override { return inner_->read_body(out, n); }
  bool reusable() const override { return inner_->reusable(); }
  std::uint64_t bytes_received() const override { return inner_->bytes_received(); }

 private:
  Helper helper_;                   // declared first: ended after the socket closes
  std::unique_ptr<Connection> inner_;
};

class HelperConnector final : public Connector {
 public:
  HelperConnector(std::string path, std::string ca_file, const RemoteOptions& options)
      : path_(std::move(path)), ca_file_(std::move(ca_file)), options_(options) {}

  std::unique_ptr<Connection> connect(const Url& url, std::string& error) override {
    Helper helper;
    const std::vector<std::string> args = {TG_TLS_ABI,
                                           std::string(tls_helper::kRelay),
                                           ca_file_,
                                           url.host,
                                           url.connect_host,
                                           std::to_string(url.port),
                                           url.host_is_address ? "1" : "0",
                                           std::to_string(options_.connect_timeout.count())};
    if (!helper.start(path_, args, error)) return nullptr;
    // The helper bounds its connect and its handshake by the connect timeout each.
    if (auto failed = helper.status(2 * options_.connect_timeout + Millis(5'000))) {
      error = *failed;
      return nullptr;
    }
    LocalStream stream(ioc_);
    error_code ec;
    stream.socket().assign(net::local::stream_protocol(), helper.release_socket(), ec);
    if (ec) {
      error = "cannot use the TLS helper's socket: " + ec.message();
      return nullptr;
    }
    return std::make_unique<HelperConnection>(
        std::move(helper), std::make_unique<StreamConnection<LocalStream>>(ioc_, std::move(stream), options_));
  }

 private:
  // Declared first: the connections made here refer to it, and the connector outlives them
  // (RemoteSession keeps both).
  net::io_context ioc_{1};
  std::string path_;
  std::string ca_file_;
  const RemoteOptions& options_;
};

class HelperClient final : public TlsClient {
 public:
  HelperClient(std::string path, std::string ca_file) : path_(std::move(path)), ca_file_(std::move(ca_file)) {}

  std::unique_ptr<Connector> make_connector(const RemoteOptions& options) override {
    return std::make_unique<HelperConnector>(path_, ca_file_, options);
  }

 private:
  std::string path_;
  std::string ca_file_;
};

}  // namespace

std::shared_ptr<TlsClient> load_tls_client(const std::string& ca_file, std::string& error) {
  const auto path = find_helper(error);
  if (!path) return nullptr;
  Helper probe;
  if (!probe.start(*path, {TG_TLS_ABI, std::string(tls_helper::kProbe), ca_file}, error)) return nullptr;
  if (auto failed = probe.status(Millis(30'000))) {
    error = *failed;
    return nullptr;
  }
  return std::make_shared<HelperClient>(*path, ca_file);
}

}  // namespace tensorgate::remote
