#pragma once
// tensorgate's helper executables, installed beside it (a build tree, a copied binary) or in
// ../lib/tensorgate/ (an installed prefix: /usr/local/bin/tensorgate and
// /usr/local/lib/tensorgate/, as the Dockerfile installs them):
//  - tensorgate-tls: the https half of remote checks (remote/tls_client.hpp);
//  - tensorgate-serve: the service, which `tensorgate serve` executes (main.cpp).
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::cli {

struct HelperLookup {
  std::optional<std::string> path;  // the first candidate that is executable, if any
  std::string beside, in_lib;       // the two places looked, in that order
};

// Where the helper `name` is, looked for beside this process's executable, then in ../lib/tensorgate/.
HelperLookup find_helper_executable(std::string_view name);

}  // namespace tensorgate::cli
