// Finds and loads tensorgate-tls.so (tls_client.hpp): beside the executable (the build tree, a
// copied binary), then in ../lib/tensorgate/ (an installed prefix: /usr/local/bin/tensorgate and
// /usr/local/lib/tensorgate/tensorgate-tls.so, as the Dockerfile installs them). Sanitizer,
// fuzzing and coverage builds link the module's code into the executable instead
// (TG_TLS_BUILTIN), where their runtimes expect it.
#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "tls_client.hpp"

#ifdef TG_TLS_BUILTIN
extern "C" tensorgate::remote::TlsClient* tensorgate_make_tls_client(const char* abi, const std::string& ca_file,
                                                                     std::string& error);
#endif

namespace tensorgate::remote {
namespace {

constexpr char kModuleName[] = "tensorgate-tls.so";

std::string executable_dir() {
  std::array<char, 4096> path{};
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  const std::string exe(path.data(), static_cast<std::size_t>(n));
  const auto slash = exe.rfind('/');
  return slash == std::string::npos ? "." : exe.substr(0, slash);
}

// The module's entry point, or nothing with `error` saying where it was looked for and why it
// could not be used.
MakeTlsClient find_entry_point(std::string& error) {
#ifdef TG_TLS_BUILTIN
  (void)error;
  return &tensorgate_make_tls_client;
#else
  const std::string dir = executable_dir();
  const std::vector<std::string> candidates = {dir + "/" + kModuleName, dir + "/../lib/tensorgate/" + kModuleName};
  for (const std::string& path : candidates) {
    if (access(path.c_str(), F_OK) != 0) continue;
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      const char* e = dlerror();
      error = "cannot load the TLS module " + path + ": " + (e ? e : "unknown error");
      return nullptr;
    }
    if (void* entry = dlsym(module, kTlsEntryPoint)) return reinterpret_cast<MakeTlsClient>(entry);
    error = "the TLS module " + path + " has no " + kTlsEntryPoint;
    return nullptr;
  }
  error = std::string("https needs the TLS module ") + kModuleName + ", found neither at " + candidates[0] +
          " nor at " + candidates[1] + " (install it beside the executable)";
  return nullptr;
#endif
}

}  // namespace

std::shared_ptr<TlsClient> load_tls_client(const std::string& ca_file, std::string& error) {
  struct Found {
    MakeTlsClient entry = nullptr;
    std::string error;
  };
  // Looked for once per process (a static's initialisation is thread-safe), never unloaded.
  static const Found found = [] {
    Found f;
    f.entry = find_entry_point(f.error);
    return f;
  }();
  if (!found.entry) {
    error = found.error;
    return nullptr;
  }
  return std::shared_ptr<TlsClient>(found.entry(TG_TLS_ABI, ca_file, error));
}

}  // namespace tensorgate::remote
