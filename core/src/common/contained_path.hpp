#pragma once
// Whether a path a file names (a zip entry, an ONNX model's external data) stays inside the
// directory it is resolved against on every system a loader runs on: no leading / or \, no drive
// letter, no backslash, no NUL, no .. component. The reason it may not, as a noun phrase ("an
// absolute path"), or nothing.
#include <optional>
#include <string_view>

namespace tensorgate::detail {

inline std::optional<std::string_view> escapes_directory(std::string_view path) {
  if (path.empty()) return "an empty name";
  if (path[0] == '/' || path[0] == '\\') return "an absolute path";
  if (path.size() >= 2 && path[1] == ':' && (path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z') return "a drive letter";
  if (path.find('\\') != std::string_view::npos) return "a backslash";
  if (path.find('\0') != std::string_view::npos) return "a NUL byte";
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t slash = path.find('/', start);
    if (path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start) == "..")
      return "a .. component";
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return std::nullopt;
}

}  // namespace tensorgate::detail
