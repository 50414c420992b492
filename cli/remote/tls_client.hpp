#pragma once
// The TLS half of remote checks lives in a module of its own, tensorgate-tls.so, loaded the first
// time a run needs it (a URL, or --ca-file). Linked into the executable, OpenSSL's tables were
// ~19,000 of its ~30,000 start-up relocations and ~110 of a small check's ~320 page faults: every
// `tensorgate check` of a local file paid for TLS it never spoke (issue 19; docs/architecture.md,
// "Build"). The module carries its own Asio, Beast and OpenSSL (statically, its symbols hidden)
// and meets the executable only through the classes below, built from the same headers.
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

// The TLS client, or nothing with `error` set (the module is missing or from another build,
// --ca-file does not load). Loads the module once per process and never unloads it.
std::shared_ptr<TlsClient> load_tls_client(const std::string& ca_file, std::string& error);

// The module's one exported function. `abi` is the caller's TG_TLS_ABI, which the module
// compares with its own: the version and a digest of the headers whose classes cross
// (cli/remote/CMakeLists.txt), so a module from another build is refused, not called. Nothing
// else crosses the boundary but the classes above, and no exception does.
inline constexpr char kTlsEntryPoint[] = "tensorgate_make_tls_client";
using MakeTlsClient = TlsClient* (*)(const char* abi, const std::string& ca_file, std::string& error);

}  // namespace tensorgate::remote
