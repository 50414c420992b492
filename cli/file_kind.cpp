#include "file_kind.hpp"

#include <fstream>
#include <string>

namespace tensorgate::cli {

std::optional<DetectedKind> sniff_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string head(kDetectPrefix, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (in.bad()) return std::nullopt;
  head.resize(static_cast<std::size_t>(in.gcount()));
  return detect_kind(head);
}

bool is_checked_file(std::string_view name, Format content) {
  switch (content) {
    case Format::safetensors:
    case Format::gguf:
    case Format::pickle:
    case Format::zip:
    case Format::npy:
    case Format::lfs_pointer: return true;
    case Format::empty:
    case Format::unknown: break;
  }
  return is_weight_name(name);
}

}  // namespace tensorgate::cli
