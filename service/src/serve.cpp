#include "tensorgate/service/serve.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <stdexcept>

#include "allocator.hpp"
#include "options.hpp"
#include "tensorgate/service/server.hpp"

namespace tensorgate::service {

int run_serve(const std::vector<std::string>& args) {
  ServeOptions options;
  try {
    options = parse_serve_options(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tensorgate serve: %s\n", e.what());
    return 2;
  }
  if (options.help) {
    std::fputs(options.help_text.c_str(), stdout);
    return 0;
  }
  tune_allocator();  // before the server's threads take their arenas
  int status = 0;
  try {
    Server server(options.config);
    server.handle_signals();
    server.start();
    server.wait();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tensorgate serve: %s\n", e.what());
    status = 2;
  }
  spdlog::shutdown();
  return status;
}

}  // namespace tensorgate::service
