#include "helper_executables.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "check_command.hpp"

namespace tensorgate::cli {
namespace {

std::string executable_dir() {
  std::array<char, 4096> path{};
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  const std::string exe(path.data(), static_cast<std::size_t>(n));
  const auto slash = exe.rfind('/');
  return slash == std::string::npos ? "." : exe.substr(0, slash);
}

}  // namespace

HelperLookup find_helper_executable(std::string_view name) {
  const std::string dir = executable_dir();
  HelperLookup found;
  found.beside = dir + "/" + std::string(name);
  found.in_lib = dir + "/../lib/tensorgate/" + std::string(name);
  for (const std::string* path : {&found.beside, &found.in_lib}) {
    if (access(path->c_str(), X_OK) == 0) {
      found.path = *path;
      break;
    }
  }
  return found;
}

int exec_helper(std::string_view name, const std::vector<std::string>& args, const char* who, const char* what) {
  HelperLookup found = find_helper_executable(name);
  if (!found.path) {
    std::fprintf(stderr, "%s: %s is the executable %s, found neither at %s nor at %s (install it beside tensorgate)\n", who,
                 what, std::string(name).c_str(), found.beside.c_str(), found.in_lib.c_str());
    return kUsageOrIo;
  }
  std::vector<std::string> owned = args;
  std::vector<char*> argv{found.path->data()};
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(found.path->c_str(), argv.data());
  std::fprintf(stderr, "%s: cannot start %s: %s\n", who, found.path->c_str(), std::strerror(errno));
  return kUsageOrIo;
}

}  // namespace tensorgate::cli
