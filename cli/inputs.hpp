#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tensorgate::cli {

// A path to check, or a path that could not be expanded and why. A model directory (it holds
// config.json, model.safetensors or model.safetensors.index.json) is one item: its files are
// checked together.
struct InputItem {
  std::string path;
  std::optional<std::string> error;
  bool model_directory = false;
};
using ExpandedInputs = std::vector<InputItem>;  // command-line order, directories sorted

// Files stay as given ("-" is standard input); directories are walked (without following
// directory symlinks, in sorted order) for files whose names end in one of `extensions`, and
// for model directories.
ExpandedInputs expand_inputs(const std::vector<std::string>& paths,
                             const std::vector<std::string>& extensions);

}  // namespace tensorgate::cli
