#include "net_connector.hpp"

#include "stream_connection.hpp"
#include "tcp_connect.hpp"

namespace tensorgate::remote {

std::unique_ptr<Connection> NetConnector::connect(const Url& url, std::string& error) {
  if (url.tls) {
    if (tls_ && !tls_connector_) tls_connector_ = tls_->make_connector(options_);
    if (!tls_connector_) {
      error = "no TLS client for " + url.host_header();
      return nullptr;
    }
    return tls_connector_->connect(url, error);
  }
  auto stream = connect_tcp(ioc_, url, options_, error);
  if (!stream) return nullptr;
  return std::make_unique<StreamConnection<beast::tcp_stream>>(ioc_, std::move(*stream), options_);
}

}  // namespace tensorgate::remote
