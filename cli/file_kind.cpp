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
  // Every model format (tensorgate/formats.def), and an LFS pointer in a weight's place.
  if (is_model_format(content) || content == Format::lfs_pointer) return true;
  return is_weight_name(name);
}

}  // namespace tensorgate::cli
