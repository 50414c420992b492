#pragma once
// Connections over the network: TCP here, and https through the TLS helper (tls_client.hpp),
// which verifies the peer's certificate and checks its name or IP address against the URL's host.
#include <memory>
#include <string>

#include "connection.hpp"
#include "remote_options.hpp"
#include "tls_client.hpp"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace tensorgate::remote {

class NetConnector final : public Connector {
 public:
  // `tls` may be null when no URL is checked: an https URL is then refused.
  NetConnector(boost::asio::io_context& ioc, std::shared_ptr<TlsClient> tls, const RemoteOptions& options)
      : ioc_(ioc), tls_(std::move(tls)), options_(options) {}

  std::unique_ptr<Connection> connect(const Url& url, std::string& error) override;

 private:
  boost::asio::io_context& ioc_;
  std::shared_ptr<TlsClient> tls_;
  std::unique_ptr<Connector> tls_connector_;  // made at the first https URL, kept for the next
  const RemoteOptions& options_;
};

}  // namespace tensorgate::remote
