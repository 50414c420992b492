#pragma once
// What one worker thread needs to fetch remote files: its own io_context, a connector (TCP or
// TLS, the TLS settings shared) and the HTTP client over it, which keeps one connection alive
// between requests to the same origin.
#include <memory>

#include "http_client.hpp"
#include "remote_options.hpp"
#include "tls_client.hpp"

namespace tensorgate::remote {

class RemoteSession {
 public:
  RemoteSession(const RemoteOptions& options, std::shared_ptr<TlsClient> tls);
  ~RemoteSession();
  RemoteSession(const RemoteSession&) = delete;
  RemoteSession& operator=(const RemoteSession&) = delete;

  HttpClient& client();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tensorgate::remote
