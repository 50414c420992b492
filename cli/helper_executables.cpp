#include "helper_executables.hpp"

#include <unistd.h>

#include <array>

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

}  // namespace tensorgate::cli
