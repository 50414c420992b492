#pragma once
// tensorgate's helper executables, installed beside it (a build tree, a copied binary) or in
// ../lib/tensorgate/ (an installed prefix: /usr/local/bin/tensorgate and
// /usr/local/lib/tensorgate/, as the Dockerfile installs them):
//  - tensorgate-tls: the https half of remote checks (remote/tls_client.hpp);
//  - tensorgate-serve: the service, which `tensorgate serve` executes (main.cpp);
//  - tensorgate-remote: the CLI with its network half, which `tensorgate check` and `diff`
//    execute for a URL (network.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::cli {

struct HelperLookup {
  std::optional<std::string> path;  // the first candidate that is executable, if any
  std::string beside, in_lib;       // the two places looked, in that order
};

// Where the helper `name` is, looked for beside this process's executable, then in ../lib/tensorgate/.
HelperLookup find_helper_executable(std::string_view name);

// Becomes the helper `name` with `args` after its own path, in this same process (its PID,
// signals and descriptors: a container's PID 1 stays PID 1, standard input is not lost).
// Returns only when that cannot happen, with the usage-or-I/O exit status, having said why on
// standard error: "`who`: `what` is the executable `name`, found neither at ... nor at ...".
int exec_helper(std::string_view name, const std::vector<std::string>& args, const char* who, const char* what);

}  // namespace tensorgate::cli
