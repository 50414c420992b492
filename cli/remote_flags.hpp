#pragma once
// The command line's remote settings (docs/remote.md): --header, TENSORGATE_TOKEN, --ca-file,
// timeouts and retries, turned into the client's options and the TLS client (tls_client.hpp).
#include <string>
#include <vector>

#include "check_runner.hpp"
#include "command_line.hpp"

namespace tensorgate::cli {

struct RemoteFlags {
  std::vector<std::string> headers;  // "Name: value"
  std::string ca_file;
  double connect_timeout = 10;
  double read_timeout = 30;
  unsigned retries = 4;
};

void add_remote_flags(OptionTable& t, RemoteFlags& f);

// Fills settings.remote, and settings.tls when an entry is a URL (or --ca-file is given).
// Throws UsageError for a bad header (naming it, never quoting its value), a
// bad timeout, or a --ca-file that does not load.
void apply_remote_flags(const RemoteFlags& f, const std::vector<std::string>& entries, CheckSettings& settings);

}  // namespace tensorgate::cli
