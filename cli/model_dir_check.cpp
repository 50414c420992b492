#include "model_dir_check.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "file_check.hpp"
#include "template_check.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

// A small JSON file of the directory, read whole: at most one byte more than the limit, so an
// oversized file is refused by the parser with its size, never read entirely.
std::optional<std::string> read_small(const fs::path& path, std::uint64_t limit, std::vector<CheckedFile>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.push_back(CheckedFile{path.string(), std::nullopt, "cannot open"});
    return std::nullopt;
  }
  std::string text(static_cast<std::size_t>(limit + 1), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

void check_model_directory(const std::string& dir, FormatChoice format, std::vector<CheckedFile>& out,
                           MemoryBudget* budget) {
  ModelDirectory md;
  const Limits limits;
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) files.push_back(it->path());
  }
  if (ec) {
    out.push_back(CheckedFile{dir, std::nullopt, "cannot list the directory: " + ec.message()});
    return;
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    const std::string name = p.filename().string();
    md.file_names.push_back(name);
    if (name == "config.json") md.config_json = read_small(p, limits.directory.max_json_bytes, out);
    if (name == "model.safetensors.index.json") md.index_json = read_small(p, limits.directory.max_json_bytes, out);
    if (name == "tokenizer.json") md.has_tokenizer_json = true;
    if (const auto kind = chat_template_file_kind(name)) {  // judged in the directory's report
      std::string error;
      if (auto r = read_template_file(p.string(), name, *kind, limits, error)) md.chat_templates.push_back(std::move(*r));
      else out.push_back(CheckedFile{p.string(), std::nullopt, error});
      continue;
    }
    if (!name.ends_with(".safetensors") && !name.ends_with(".gguf")) continue;
    CheckedFile checked = check_file(p.string(), limits, format, budget);
    add_weights(md, name, checked);
    out.push_back(std::move(checked));
  }
  CheckedFile directory{dir, std::nullopt, std::nullopt, tensorgate::check_model_directory(md, limits)};
  out.push_back(std::move(directory));
}

void add_weights(ModelDirectory& md, const std::string& name, const CheckedFile& checked) {
  if (checked.report && checked.report->format == Format::safetensors)
    md.weights.push_back(inventory_of(name, *checked.report));
  else if (name.ends_with(".safetensors"))
    md.weights.push_back(FileInventory{name, false, {}, {}});  // unreadable: invalid here
  else if (checked.report)
    md.gguf.push_back(gguf_facts_of(name, *checked.report));
  else if (name.ends_with(".gguf"))
    md.gguf.push_back(GgufFileFacts{name, false, {}, {}, {}, {}, {}, {}});  // unreadable: invalid here
}

}  // namespace tensorgate::cli
