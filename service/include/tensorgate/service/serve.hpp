#pragma once
// `tensorgate serve [--listen HOST:PORT] [--config FILE] [--<limit> VALUE ...]`.
#include <string>
#include <vector>

namespace tensorgate::service {

// Runs the service until SIGTERM or SIGINT; returns the process exit status (0, or 2 for a
// usage or startup error).
int run_serve(const std::vector<std::string>& args);

}  // namespace tensorgate::service
