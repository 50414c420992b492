#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tensorgate::cli {

// A path to check, or a path that could not be expanded and why. A model directory (it holds
// config.json, model.safetensors, pytorch_model.bin or an index, or its model files are all
// GGUF or all torch checkpoints) is one item: its files are checked together.
struct InputItem {
  std::string path;
  std::optional<std::string> error;
  bool model_directory = false;
};
using ExpandedInputs = std::vector<InputItem>;  // command-line order, directories sorted

// Files stay as given ("-" is standard input); directories are walked (without following
// directory symlinks, in sorted order) for model directories and, elsewhere, for the files
// is_checked_file() takes (by content, or a weight's name) and chat template files.
ExpandedInputs expand_inputs(const std::vector<std::string>& paths);

// The *.jinja files in a model directory's subdirectories, as paths relative to it
// ("additional_chat_templates/tool_use.jinja"), in the walk's order: a loader renders templates
// from any of them (transformers' additional_chat_templates/, a server's --chat-template), so
// they are judged in the directory's report, and the walk leaves them out. A subdirectory that is
// a model directory of its own keeps its templates for its own report.
std::vector<std::string> nested_template_files(const std::string& dir);

}  // namespace tensorgate::cli
