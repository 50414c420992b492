// tensorgate-tls: the https half of remote checks, in a process of its own (tls_client.hpp,
// tls_helper_protocol.hpp). It connects, verifies the server's certificate and name, says "ok"
// on its socket, then relays bytes between that socket and the TLS stream; the executable speaks
// HTTP over the socket with the same response handling as plain http (stream_connection.hpp).
// OpenSSL lives only here: the executable stays a static PIE without it, and a
// local check pays nothing for TLS.
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <array>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <csignal>
#include <exception>
#include <memory>
#include <string>

#include "tcp_connect.hpp"
#include "tls_helper_protocol.hpp"

namespace tensorgate::remote {
namespace {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;
using Local = net::local::stream_protocol::socket;
constexpr int kSocketFd = 0;

// The status line, written whole to the executable's socket (blocking: nothing else runs yet).
void say(std::string_view status, std::string_view message = {}) {
  std::string line(status);
  line.append(message.substr(0, tls_helper::kMaxStatusBytes - line.size() - 1));
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  line.push_back('\n');
  for (std::size_t done = 0; done < line.size();) {
    const ssize_t n = ::write(kSocketFd, line.data() + done, line.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

int fail(const std::string& message) {
  say(tls_helper::kErrorPrefix, message);
  return 1;
}

std::shared_ptr<net::ssl::context> make_context(const std::string& ca_file, std::string& error) {
  auto ctx = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
  error_code ec;
  ctx->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                   net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 | net::ssl::context::no_tlsv1_1, ec);
  ctx->set_default_verify_paths(ec);
  if (ec) {
    error = "cannot load the system's trusted certificates: " + ec.message();
    return nullptr;
  }
  if (!ca_file.empty()) {
    ctx->load_verify_file(ca_file, ec);
    if (ec) {
      error = "cannot load --ca-file " + ca_file + ": " + ec.message();
      return nullptr;
    }
  }
  ctx->set_verify_mode(net::ssl::verify_peer);
  return ctx;
}

// The name (or address) the certificate must carry, checked by OpenSSL during verification,
// and the name sent as SNI.
bool pin_peer(TlsStream& tls, const Url& url) {
  SSL* ssl = tls.native_handle();
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  const bool pinned = url.host_is_address ? X509_VERIFY_PARAM_set1_ip_asc(param, url.connect_host.c_str()) == 1
                                          : X509_VERIFY_PARAM_set1_host(param, url.host.c_str(), url.host.size()) == 1;
  return pinned && (url.host_is_address || SSL_set_tlsext_host_name(ssl, url.host.c_str()) == 1);
}

// The certificate problem OpenSSL found ("hostname mismatch", "self-signed certificate"), when
// the handshake failed on verification.
std::string tls_failure(TlsStream& s, const error_code& ec) {
  const long verify = SSL_get_verify_result(s.native_handle());
  if (verify != X509_V_OK) return "certificate verify failed: " + std::string(X509_verify_cert_error_string(verify));
  if (ec == net::ssl::error::stream_truncated) return "the server closed the connection during the handshake";
  return ec.message();
}

// One direction of the relay: read what arrives on `from`, write it all to `to`, again. When
// `from` ends, `done` runs once.
template <class From, class To, class Done>
class Pump {
 public:
  Pump(From& from, To& to, Done done) : from_(from), to_(to), done_(std::move(done)) {}
  void start() {
    from_.async_read_some(net::buffer(buffer_), [this](const error_code& ec, std::size_t n) {
      if (ec) return done_();
      net::async_write(to_, net::buffer(buffer_.data(), n), [this](const error_code& wec, std::size_t) {
        if (wec) return done_();
        start();
      });
    });
  }

 private:
  From& from_;
  To& to_;
  Done done_;
  std::array<char, 64 * 1024> buffer_{};
};

// Until the executable closes its end (it also ends this process when a connection is dropped)
// or the server ends the TLS stream: then the socket is shut for writing, so the executable
// reads the end of the response as it would on a plain connection.
void relay(net::io_context& ioc, TlsStream& tls, Local& local) {
  auto stop = [&] { ioc.stop(); };
  auto server_ended = [&] {
    error_code ignored;
    local.shutdown(Local::shutdown_send, ignored);
  };
  Pump up(local, tls, stop);
  Pump down(tls, local, server_ended);
  up.start();
  down.start();
  ioc.restart();
  ioc.run();
}

int run_relay(char** argv, const std::shared_ptr<net::ssl::context>& context) {
  Url url;
  url.tls = true;
  url.host = argv[4];
  url.connect_host = argv[5];
  url.port = static_cast<std::uint16_t>(std::stoul(argv[6]));
  url.host_is_address = std::string_view(argv[7]) == "1";
  RemoteOptions options;
  options.connect_timeout = Millis(std::stoll(argv[8]));
  const std::string where = url.host_header();

  net::io_context ioc{1};
  std::string error;
  auto tcp_stream = connect_tcp(ioc, url, options, error);
  if (!tcp_stream) return fail(error);
  TlsStream tls(std::move(*tcp_stream), *context);
  if (!pin_peer(tls, url)) return fail("cannot set up TLS for " + where);
  beast::get_lowest_layer(tls).expires_after(options.connect_timeout);
  const error_code ec =
      run_to_completion(ioc, [&](auto handler) { tls.async_handshake(net::ssl::stream_base::client, handler); });
  if (ec) {
    return fail(ec == beast::error::timeout ? "TLS handshake with " + where + " timed out after " +
                                                  whole_seconds(options.connect_timeout) + " (--connect-timeout)"
                                            : "TLS handshake with " + where + " failed: " + tls_failure(tls, ec));
  }
  beast::get_lowest_layer(tls).expires_never();
  say(tls_helper::kOk);
  Local local(ioc);
  local.assign(net::local::stream_protocol(), kSocketFd);
  relay(ioc, tls, local);
  return 0;
}

int run(int argc, char** argv) {
  const int args = argc - 1;
  if (args < tls_helper::kProbeArgs || std::string_view(argv[1]) != TG_TLS_ABI)
    return fail(std::string("the TLS helper is from another build of tensorgate (") + TG_TLS_ABI + ")");
  const std::string_view mode = argv[2];
  std::string error;
  auto context = make_context(argv[3], error);
  if (!context) return fail(error);
  if (mode == tls_helper::kProbe && args == tls_helper::kProbeArgs) {
    say(tls_helper::kOk);
    return 0;
  }
  if (mode == tls_helper::kRelay && args == tls_helper::kRelayArgs) return run_relay(argv, context);
  return fail("the TLS helper was called with unknown arguments");
}

}  // namespace
}  // namespace tensorgate::remote

int main(int argc, char** argv) {
  // Ends with the executable that started it, whatever it is doing then; writes to a socket the
  // executable has closed fail instead of killing it.
  // (Should the executable end before this line, the socket's end bounds the helper instead.)
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return tensorgate::remote::run(argc, argv);
  } catch (const std::exception& e) {
    return tensorgate::remote::fail(std::string("TLS helper failed: ") + e.what());
  }
}
