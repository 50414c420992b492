#include "model_dir_check.hpp"


#include <algorithm>
#include <filesystem>

#include "file_check.hpp"
#include "file_kind.hpp"
#include "file_source.hpp"
#include "inputs.hpp"
#include "savedmodel_dir.hpp"
#include "template_check.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

// A small JSON file of the directory, read whole: at most one byte more than the limit, so an
// oversized file is refused by the parser with its size, never read entirely.
std::optional<std::string> read_small(const fs::path& path, std::uint64_t limit, std::vector<CheckedFile>& out) {
  std::optional<std::string> text = read_small_file(path.string(), limit);
  if (!text) out.push_back(CheckedFile{path.string(), std::nullopt, "cannot open"});
  return text;
}

// The ONNX models of the directory's onnx/ folder (transformers.js's layout), by content; the
// walk checks each as a file of its own.
std::vector<std::string> onnx_folder_models(const fs::path& dir) {
  std::vector<std::string> models;
  std::error_code ec;
  for (fs::directory_iterator it(dir / "onnx", ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    const auto kind = sniff_file(it->path());
    if (kind && kind->format == Format::onnx) models.push_back("onnx/" + it->path().filename().string());
  }
  std::sort(models.begin(), models.end());
  return models;
}

}  // namespace

void check_model_directory(const std::string& dir, FormatChoice format, std::vector<CheckedFile>& out,
                           MemoryBudget* budget, const Limits& limits) {
  ModelDirectory md;
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
  // Every regular file by its content, first: an OpenVINO model's .bin is known by its .xml.
  std::vector<DetectedKind> kinds;
  std::vector<ListedFile> listed;
  for (const fs::path& p : files) {
    kinds.push_back(sniff_file(p).value_or(DetectedKind{Format::unknown, "a file that cannot be read"}));
    listed.push_back(ListedFile{p.filename().string(), kinds.back().format});
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& p = files[i];
    const std::string name = p.filename().string();
    md.file_names.push_back(name);
    if (name == "config.json") md.config_json = read_small(p, limits.directory.max_json_bytes, out);
    if (name == "model.safetensors.index.json") md.index_json = read_small(p, limits.directory.max_json_bytes, out);
    if (name == "pytorch_model.bin.index.json") md.bin_index_json = read_small(p, limits.directory.max_json_bytes, out);
    if (name == "tokenizer.json") md.has_tokenizer_json = true;
    if (name == "saved_model.pb") md.savedmodel = savedmodel_variables(dir, limits);
    // Every regular file by its content: model files are checked, chat template files judged in
    // the directory's report, the rest listed as no weights.
    const DetectedKind& kind = kinds[i];
    if (is_openvino_weights(name, listed)) continue;  // checked with its model.xml (check_file)
    if (const auto template_kind = template_file_kind(name, kind.format)) {
      std::string error;
      if (auto r = read_template_file(p.string(), name, *template_kind, limits, error)) md.chat_templates.push_back(std::move(*r));
      else out.push_back(CheckedFile{p.string(), std::nullopt, error});
      continue;
    }
    if (!is_checked_file(name, kind.format)) {
      md.other_files.push_back(OtherFile{name, kind.format, kind.looks_like});
      continue;
    }
    CheckedFile checked = check_file(p.string(), limits, format, budget);
    if (const SavedModelSummary* graph = checked.report ? checked.report->summary.get<SavedModelSummary>() : nullptr;
        graph && md.savedmodel && name == "saved_model.pb")
      md.savedmodel->graph_variables = savedmodel_graph_variables(*graph);
    add_weights(md, name, checked, kind.format);
    out.push_back(std::move(checked));
  }
  md.onnx_folder_models = onnx_folder_models(dir);
  for (const std::string& rel : nested_template_files(dir)) {
    std::string error;
    const std::string path = (fs::path(dir) / rel).string();
    if (auto r = read_template_file(path, rel, ChatTemplateFileKind::jinja, limits, error)) md.chat_templates.push_back(std::move(*r));
    else out.push_back(CheckedFile{path, std::nullopt, error});
  }
  CheckedFile directory{dir, std::nullopt, std::nullopt, tensorgate::check_model_directory(md, limits)};
  out.push_back(std::move(directory));
}

void add_weights(ModelDirectory& md, const std::string& name, const CheckedFile& checked, Format content) {
  if (checked.report)
    md.weights.push_back(inventory_of(name, *checked.report));
  else  // unreadable: invalid here, its own entry says why
    md.weights.push_back(FileInventory{name, false, content, {}, {}});
  if (checked.report && checked.report->format == Format::gguf)  // for the split-set checks (GS)
    md.gguf.push_back(gguf_facts_of(name, *checked.report));
  else if (parse_split_name(name))  // named as a shard, unreadable or of other content: an invalid one
    md.gguf.push_back(GgufFileFacts{name, false, {}, {}, {}, {}, {}, {}});
}

}  // namespace tensorgate::cli
