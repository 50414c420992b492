#include "file_kind.hpp"

#include <string>

#include "file_source.hpp"

namespace tensorgate::cli {

std::optional<DetectedKind> sniff_file(const std::filesystem::path& path) {
  SequentialFile in(path.string());
  if (!in.is_open()) return std::nullopt;
  std::string head(kDetectPrefix, '\0');
  const std::optional<std::size_t> n = in.read(head);
  if (!n) return std::nullopt;
  head.resize(*n);
  return detect_kind(head);
}

bool is_checked_file(std::string_view name, Format content) {
  switch (content) {
    case Format::safetensors:
    case Format::gguf:
    case Format::pickle:
    case Format::zip:
    case Format::npy:
    case Format::tar:
    case Format::lfs_pointer: return true;
    case Format::empty:
    case Format::unknown: break;
  }
  return is_weight_name(name);
}

}  // namespace tensorgate::cli
