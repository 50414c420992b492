#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tensorgate::cli {

// A path to check, or a path that could not be expanded and why.
struct InputItem {
  std::string path;
  std::optional<std::string> error;
};
using ExpandedInputs = std::vector<InputItem>;  // command-line order, directories sorted

// Files stay as given ("-" is standard input); directories are walked (without following
// directory symlinks) for files whose names end in one of `extensions`.
ExpandedInputs expand_inputs(const std::vector<std::string>& paths,
                             const std::vector<std::string>& extensions);

}  // namespace tensorgate::cli
