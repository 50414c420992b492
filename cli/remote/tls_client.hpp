#pragma once
// The TLS half of remote checks runs in a helper process, tensorgate-tls (tls_helper_main.cpp),
// started for each https connection. Linked into the executable, OpenSSL's tables were ~19,000 of
// its ~30,000 start-up relocations and ~110 of a small check's ~320 page faults, and a library
// loaded with dlopen would keep the executable from being a static PIE: every `tensorgate check`
// of a local file paid for TLS it never spoke (docs/architecture.md, "Build"). The
// helper makes the TCP connection, verifies the certificate and the name, and relays bytes over
// a socket pair; the executable speaks HTTP over its end (tls_helper_protocol.hpp).
#include <memory>
#include <string>

#include "connection.hpp"
#include "remote_options.hpp"

namespace tensorgate::remote {

// One per run: the TLS settings every connection shares (TLS 1.2 or later, peer verification
// against the system's trusted certificates, SSL_CERT_FILE and SSL_CERT_DIR honoured, plus
// --ca-file).
class TlsClient {
 public:
  virtual ~TlsClient() = default;
  // A connector for https URLs with its own io_context: one per worker thread. It checks the
  // peer's name (or IP address) against the URL's host. `options` outlives it. Nothing when it
  // cannot be made.
  virtual std::unique_ptr<Connector> make_connector(const RemoteOptions& options) = 0;
};

// The TLS client, or nothing with `error` set: the helper is missing or from another build, or
// --ca-file does not load (the helper is asked once, here, so that a run fails before its
// first file).
std::shared_ptr<TlsClient> load_tls_client(const std::string& ca_file, std::string& error);

}  // namespace tensorgate::remote
