// What the CLI does about URLs in either executable (network.hpp): notice them, and hand the
// command line over when this executable has no network half.
#include "network.hpp"

#include <algorithm>

#include "helper_executables.hpp"
#include "url.hpp"

namespace tensorgate::cli::network {

bool names_a_url(const std::vector<std::string>& entries) {
  return std::any_of(entries.begin(), entries.end(), [](const std::string& e) { return remote::looks_like_url(e); });
}

std::optional<int> hand_over(const char* command, const std::vector<std::string>& args, bool needed) {
  if (!needed || in_process()) return std::nullopt;
  std::vector<std::string> with_command{command};
  with_command.insert(with_command.end(), args.begin(), args.end());
  const std::string who = std::string("tensorgate ") + command;
  return exec_helper("tensorgate-remote", with_command, who.c_str(), "checking a URL");
}

}  // namespace tensorgate::cli::network
