// tensorgate-tls.so (tls_client.hpp): https connections for the remote checks. OpenSSL through
// Asio's SSL layer, Beast over it; the TCP half and the response handling are the executable's
// own code (tcp_connect.cpp, stream_connection.hpp), compiled again here.
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <exception>

#include "stream_connection.hpp"
#include "tcp_connect.hpp"
#include "tls_client.hpp"

namespace tensorgate::remote {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// A TLS stream fails in one more way than TCP: the peer ends it without close_notify.
template <>
struct StreamErrors<TlsStream> {
  static std::string describe(const error_code& ec, bool in_body, const RemoteOptions& options) {
    if (ec == net::ssl::error::stream_truncated) return "the TLS stream was cut short (no close_notify)";
    return describe_error(ec, in_body, options);
  }
};

namespace {

// The certificate problem OpenSSL found ("hostname mismatch", "self-signed certificate"), when
// the handshake failed on verification.
std::string tls_failure(TlsStream& s, const error_code& ec) {
  const long verify = SSL_get_verify_result(s.native_handle());
  if (verify != X509_V_OK) return "certificate verify failed: " + std::string(X509_verify_cert_error_string(verify));
  if (ec == net::ssl::error::stream_truncated) return "the server closed the connection during the handshake";
  return ec.message();
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

// No exception crosses into the executable (its C++ runtime is another copy): a connection
// made here turns one into a Failure, as the connector below does.
class GuardedConnection final : public Connection {
 public:
  explicit GuardedConnection(std::unique_ptr<Connection> inner) : inner_(std::move(inner)) {}

  Failure send(const OutgoingRequest& r) override {
    return guarded([&] { return inner_->send(r); });
  }
  Failure read_head(ResponseHead& head) override {
    return guarded([&] { return inner_->read_head(head); });
  }
  Failure read_body(std::span<std::byte> out, std::size_t& n) override {
    return guarded([&] { return inner_->read_body(out, n); });
  }
  bool reusable() const override { return inner_->reusable(); }
  std::uint64_t bytes_received() const override { return inner_->bytes_received(); }

 private:
  template <class Call>
  static Failure guarded(Call&& call) {
    try {
      return call();
    } catch (const std::exception& e) {
      return std::string("TLS connection failed: ") + e.what();
    }
  }

  std::unique_ptr<Connection> inner_;
};

class TlsConnector final : public Connector {
 public:
  TlsConnector(std::shared_ptr<net::ssl::context> context, const RemoteOptions& options)
      : context_(std::move(context)), options_(options) {}

  std::unique_ptr<Connection> connect(const Url& url, std::string& error) override {
    try {
      return connect_tls(url, error);
    } catch (const std::exception& e) {
      error = "TLS connection to " + url.host_header() + " failed: " + e.what();
      return nullptr;
    }
  }

 private:
  std::unique_ptr<Connection> connect_tls(const Url& url, std::string& error) {
    const std::string where = url.host_header();
    auto tcp_stream = connect_tcp(ioc_, url, options_, error);
    if (!tcp_stream) return nullptr;
    TlsStream tls(std::move(*tcp_stream), *context_);
    if (!pin_peer(tls, url)) {
      error = "cannot set up TLS for " + where;
      return nullptr;
    }
    beast::get_lowest_layer(tls).expires_after(options_.connect_timeout);
    const error_code ec = run_to_completion(
        ioc_, [&](auto handler) { tls.async_handshake(net::ssl::stream_base::client, handler); });
    if (ec) {
      error = ec == beast::error::timeout ? "TLS handshake with " + where + " timed out after " +
                                                whole_seconds(options_.connect_timeout) + " (--connect-timeout)"
                                          : "TLS handshake with " + where + " failed: " + tls_failure(tls, ec);
      return nullptr;
    }
    beast::get_lowest_layer(tls).expires_never();
    return std::make_unique<GuardedConnection>(
        std::make_unique<StreamConnection<TlsStream>>(ioc_, std::move(tls), options_));
  }

  // Declared first: the connections made here refer to it, and the connector outlives them
  // (RemoteSession keeps both).
  net::io_context ioc_{1};
  std::shared_ptr<net::ssl::context> context_;
  const RemoteOptions& options_;
};

class OpenSslClient final : public TlsClient {
 public:
  explicit OpenSslClient(std::shared_ptr<net::ssl::context> context) : context_(std::move(context)) {}

  // Nothing when the connector cannot be made (out of memory): no exception leaves the module.
  std::unique_ptr<Connector> make_connector(const RemoteOptions& options) override {
    try {
      return std::make_unique<TlsConnector>(context_, options);
    } catch (const std::exception&) {
      return nullptr;
    }
  }

 private:
  std::shared_ptr<net::ssl::context> context_;  // OpenSSL's SSL_CTX: shared by every thread
};

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

}  // namespace
}  // namespace tensorgate::remote

extern "C" __attribute__((visibility("default"))) tensorgate::remote::TlsClient* tensorgate_make_tls_client(
    const char* abi, const std::string& ca_file, std::string& error) {
  using namespace tensorgate::remote;
  if (std::string_view(abi) != TG_TLS_ABI) {
    error = std::string("the TLS module is from another build of tensorgate (") + TG_TLS_ABI + ", not " + abi + ")";
    return nullptr;
  }
  try {
    auto context = make_context(ca_file, error);
    return context ? new OpenSslClient(std::move(context)) : nullptr;
  } catch (const std::exception& e) {
    error = std::string("cannot set up TLS: ") + e.what();
    return nullptr;
  }
}
