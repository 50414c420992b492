#include "template_check.hpp"


#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "file_kind.hpp"
#include "file_source.hpp"

namespace tensorgate::cli {

std::optional<ChatTemplateFileKind> template_file_kind(std::string_view name, Format content) {
  if (is_checked_file(name, content)) return std::nullopt;
  return chat_template_file_kind(name);
}

std::optional<ChatTemplateFileReport> read_template_file(const std::string& path, const std::string& name,
                                                         ChatTemplateFileKind kind, const Limits& limits,
                                                         std::string& error) {
  SequentialFile in(path);
  if (!in.is_open()) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return std::nullopt;
  }
  constexpr std::size_t kChunk = 1 << 20;
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  ChatTemplateFileCheck check(name, kind, limits);
  // A JSON file past its limit is refused by its size: no need to read the rest.
  std::uint64_t left = kind == ChatTemplateFileKind::json ? limits.directory.max_json_bytes + 1 : UINT64_MAX;
  while (left > 0) {
    const std::optional<std::size_t> n = in.read({buffer.get(), static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, left))});
    if (!n) {
      error = "cannot read";
      return std::nullopt;
    }
    if (*n == 0) break;
    check.feed(std::string_view(buffer.get(), *n));
    left -= *n;
  }
  return check.finish();
}

CheckedFile check_template_file(const std::string& path, ChatTemplateFileKind kind, const Limits& limits) {
  std::string error;
  auto report = read_template_file(path, std::filesystem::path(path).filename().string(), kind, limits, error);
  if (!report) return CheckedFile{path, std::nullopt, error};
  CheckedFile out{path, std::nullopt, std::nullopt};
  out.chat_template = std::move(*report);
  return out;
}

}  // namespace tensorgate::cli
