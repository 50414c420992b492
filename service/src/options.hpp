#pragma once
// Command-line flags and the INI-style config file of `tensorgate serve`: every ServiceConfig
// field has one option, the same name in both (`--max-body-bytes 1000` or
// `max-body-bytes = 1000`). Flags win over the file.
#include <string>
#include <vector>

#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

struct ServeOptions {
  ServiceConfig config;
  bool help = false;
  std::string help_text;
};

// Throws std::runtime_error with a message for the user on bad usage.
ServeOptions parse_serve_options(const std::vector<std::string>& args);

// "HOST:PORT", "[V6]:PORT" or ":PORT" into config.host and config.port.
void parse_listen(const std::string& listen, ServiceConfig& config);

}  // namespace tensorgate::service
