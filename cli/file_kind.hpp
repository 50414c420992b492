#pragma once
// What a file of a walked directory is, from its first bytes (the content decides, never the
// name), and whether the walk checks it as a model file or lists it as a file of no weights.
#include <filesystem>
#include <optional>
#include <string_view>

#include "tensorgate/detect.hpp"

namespace tensorgate::cli {

// The kind of the file at `path` from its first kDetectPrefix bytes; nothing when it cannot be
// read (the check that follows reports why).
std::optional<DetectedKind> sniff_file(const std::filesystem::path& path);

// Checked as a model file: content of a model format, a Git LFS pointer (an incomplete checkout,
// whatever the name), or a weight's name (.bin, .safetensors, ...) whatever the content, so an
// HTML page saved as pytorch_model.bin is an error, not a skipped file.
bool is_checked_file(std::string_view name, Format content);

}  // namespace tensorgate::cli
