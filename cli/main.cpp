// tensorgate: validates model files (`check`, `audit`, `diff`), lists its rules (`rules`), and
// starts the service (`serve`: the executable tensorgate-serve, service/src/serve_main.cpp).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "audit_command.hpp"
#include "check_command.hpp"
#include "diff_command.hpp"
#include "helper_executables.hpp"
#include "tensorgate/report_writers.hpp"

namespace {

const char* const kUsage =
    "usage: tensorgate <command> [options]\n"
    "commands:\n"
    "  check PATH...   validate files and directories (tensorgate check --help)\n"
    "  audit SRC GGUF  prove a GGUF holds the checkpoint of SRC (tensorgate audit --help)\n"
    "  diff OLD NEW    what changed between two models, tensor by tensor (tensorgate diff --help)\n"
    "  serve           run the HTTP validation service (tensorgate serve --help)\n"
    "  rules           print the rule catalogue as JSON\n"
    "  version         print the version\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return tensorgate::cli::kUsageOrIo;
  }
  const std::string_view command = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (command == "check") return tensorgate::cli::run_check(rest);
  if (command == "audit") return tensorgate::cli::run_audit(rest);
  if (command == "diff") return tensorgate::cli::run_diff(rest);
  // The service is an executable of its own, which takes this process over.
  if (command == "serve") return tensorgate::cli::exec_helper("tensorgate-serve", rest, "tensorgate serve", "the service");
  if (command == "rules") {
    tensorgate::JsonWriter w([](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); });
    tensorgate::write_rules_json(w);
    w.flush();
    std::fputs("\n", stdout);
    return 0;
  }
  if (command == "version" || command == "--version") {
    std::printf("tensorgate %s\n", std::string(tensorgate::tool_version()).c_str());
    return 0;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::fprintf(stderr, "tensorgate: unknown command '%s'\n%s", argv[1], kUsage);
  return tensorgate::cli::kUsageOrIo;
}
