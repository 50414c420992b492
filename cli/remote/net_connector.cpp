#include "net_connector.hpp"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "stream_connection.hpp"

namespace tensorgate::remote {
namespace {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

std::string seconds_of(Millis d) { return std::to_string((d.count() + 999) / 1000) + " s"; }

// Runs one asynchronous operation on `ioc` to completion.
template <class Start>
error_code run(net::io_context& ioc, Start&& start) {
  error_code result = net::error::operation_aborted;
  start([&](const error_code& ec, auto&&...) { result = ec; });
  ioc.restart();
  ioc.run();
  return result;
}

// The certificate problem OpenSSL found ("hostname mismatch", "self-signed certificate"), when
// the handshake failed on verification.
std::string tls_failure(TlsStream& s, const error_code& ec) {
  const long verify = SSL_get_verify_result(s.native_handle());
  if (verify != X509_V_OK) return "certificate verify failed: " + std::string(X509_verify_cert_error_string(verify));
  if (ec == net::ssl::error::stream_truncated) return "the server closed the connection during the handshake";
  return ec.message();
}

}  // namespace

std::shared_ptr<net::ssl::context> make_tls_context(const std::string& ca_file, std::string& error) {
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

std::unique_ptr<Connection> NetConnector::connect(const Url& url, std::string& error) {
  const std::string where = url.host_header();
  tcp::resolver resolver(ioc_);
  error_code ec;
  const auto flags = url.host_is_address ? tcp::resolver::numeric_host : tcp::resolver::flags();
  const auto endpoints = resolver.resolve(url.connect_host, std::to_string(url.port), flags, ec);
  if (ec) {
    error = "cannot resolve " + url.host + ": " + ec.message();
    return nullptr;
  }
  beast::tcp_stream tcp_stream(ioc_);
  tcp_stream.expires_after(options_.connect_timeout);
  ec = run(ioc_, [&](auto handler) { tcp_stream.async_connect(endpoints, handler); });
  if (ec) {
    error = ec == beast::error::timeout ? "cannot connect to " + where + ": timed out after " +
                                              seconds_of(options_.connect_timeout) + " (--connect-timeout)"
                                        : "cannot connect to " + where + ": " + ec.message();
    return nullptr;
  }
  tcp_stream.socket().set_option(tcp::no_delay(true), ec);
  if (!url.tls) {
    tcp_stream.expires_never();
    return std::make_unique<StreamConnection<beast::tcp_stream>>(ioc_, std::move(tcp_stream), options_);
  }
  if (!tls_) {
    error = "no TLS context for " + where;
    return nullptr;
  }
  TlsStream tls(std::move(tcp_stream), *tls_);
  SSL* ssl = tls.native_handle();
  // The name (or address) the certificate must carry, checked by OpenSSL during verification.
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  const bool pinned = url.host_is_address ? X509_VERIFY_PARAM_set1_ip_asc(param, url.connect_host.c_str()) == 1
                                          : X509_VERIFY_PARAM_set1_host(param, url.host.c_str(), url.host.size()) == 1;
  if (!pinned || (!url.host_is_address && SSL_set_tlsext_host_name(ssl, url.host.c_str()) != 1)) {
    error = "cannot set up TLS for " + where;
    return nullptr;
  }
  beast::get_lowest_layer(tls).expires_after(options_.connect_timeout);
  ec = run(ioc_, [&](auto handler) { tls.async_handshake(net::ssl::stream_base::client, handler); });
  if (ec) {
    error = ec == beast::error::timeout ? "TLS handshake with " + where + " timed out after " +
                                              seconds_of(options_.connect_timeout) + " (--connect-timeout)"
                                        : "TLS handshake with " + where + " failed: " + tls_failure(tls, ec);
    return nullptr;
  }
  beast::get_lowest_layer(tls).expires_never();
  return std::make_unique<StreamConnection<TlsStream>>(ioc_, std::move(tls), options_);
}

}  // namespace tensorgate::remote
