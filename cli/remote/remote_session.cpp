#include "remote_session.hpp"

#include <boost/asio/io_context.hpp>

#include "net_connector.hpp"

namespace tensorgate::remote {

struct RemoteSession::Impl {
  Impl(const RemoteOptions& options, std::shared_ptr<TlsClient> tls)
      : connector(ioc, std::move(tls), options), client(connector, options) {}
  boost::asio::io_context ioc{1};
  NetConnector connector;
  HttpClient client;
};

RemoteSession::RemoteSession(const RemoteOptions& options, std::shared_ptr<TlsClient> tls)
    : impl_(std::make_unique<Impl>(options, std::move(tls))) {}

RemoteSession::~RemoteSession() = default;

HttpClient& RemoteSession::client() { return impl_->client; }

}  // namespace tensorgate::remote
