// tensorgate-serve: the service in an executable of its own. `tensorgate serve ARGS` executes it
// (cli/main.cpp), so the command people and deployments use is unchanged, and the CLI, which
// starts once per file in a CI gate, carries none of the service's code or the data its start
// must relocate (~0.03-0.07 of /bin/true's time per check, bench/README.md).
#include <string>
#include <vector>

#include "tensorgate/service/serve.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return tensorgate::service::run_serve(args);
}
