#pragma once
// Connections over the network: TCP, and TLS with the peer's certificate verified against the
// system store (and --ca-file) and its name or IP address checked against the URL's host.
#include <memory>
#include <string>

#include "connection.hpp"
#include "remote_options.hpp"

namespace boost::asio {
class io_context;
namespace ssl {
class context;
}
}  // namespace boost::asio

namespace tensorgate::remote {

// The TLS settings every connection shares: TLS 1.2 or later, peer verification, the system's
// trusted certificates (OpenSSL's default paths; SSL_CERT_FILE and SSL_CERT_DIR are honoured)
// plus `ca_file` when given. Nothing, with `error` set, when `ca_file` cannot be loaded.
std::shared_ptr<boost::asio::ssl::context> make_tls_context(const std::string& ca_file, std::string& error);

class NetConnector final : public Connector {
 public:
  // `tls` may be null when no https URL is checked.
  NetConnector(boost::asio::io_context& ioc, std::shared_ptr<boost::asio::ssl::context> tls,
               const RemoteOptions& options)
      : ioc_(ioc), tls_(std::move(tls)), options_(options) {}

  std::unique_ptr<Connection> connect(const Url& url, std::string& error) override;

 private:
  boost::asio::io_context& ioc_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  const RemoteOptions& options_;
};

}  // namespace tensorgate::remote
