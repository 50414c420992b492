#include "diff_inputs.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "file_check.hpp"
#include "model_dir_check.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

bool is_weights(const CheckedFile& f) { return f.report.has_value() && !f.directory; }

// The model's files: those the directory's summary names (the shards of the index, or
// model.safetensors), else every weights file the listing holds (a directory of one GGUF).
std::vector<const CheckedFile*> model_files(const std::vector<CheckedFile>& checked) {
  std::vector<const CheckedFile*> files;
  const CheckedFile& dir = checked.back();
  if (dir.directory)
    for (const std::string& name : dir.directory->summary.files)
      for (const CheckedFile& f : checked)
        if (is_weights(f) && fs::path(f.path).filename() == name) files.push_back(&f);
  if (files.empty())
    for (const CheckedFile& f : checked)
      if (is_weights(f)) files.push_back(&f);
  return files;
}

std::optional<std::string> aborted(const CheckedFile& f) {
  if (f.error) return f.path + ": " + *f.error;
  if (f.report && f.report->aborted) return f.path + ": check aborted (" + f.report->aborted->limit + "): " + f.report->aborted->message;
  return std::nullopt;
}

}  // namespace

void gather_diff_input(const std::string& path, bool values, MemoryBudget& budget, DiffInput& in) {
  in.side.path = path;
  std::error_code ec;
  std::vector<const CheckedFile*> files;
  if (fs::is_directory(path, ec)) {
    check_model_directory(path, FormatChoice::auto_detect, in.checked, &budget);
    for (const CheckedFile& f : in.checked)
      if (auto why = aborted(f)) return void(in.error = *why);
    if (in.checked.back().directory) in.side.directory = &*in.checked.back().directory;
    const fs::path config = fs::path(path) / "config.json";
    if (fs::is_regular_file(config, ec)) in.config_json = read_small_file(config.string(), Limits{}.directory.max_json_bytes);
    if (in.config_json) in.side.config_json = *in.config_json;
    files = model_files(in.checked);
  } else {
    in.checked.push_back(check_file(path, Limits{}, FormatChoice::auto_detect, &budget));
    if (auto why = aborted(in.checked.back())) return void(in.error = *why);
    files.push_back(&in.checked.back());
  }
  if (files.empty()) return void(in.error = path + ": no safetensors or GGUF files");
  for (const CheckedFile* f : files) {
    DiffFile file{f->path, &*f->report, nullptr};
    if (values) {
      auto source = std::make_unique<FileSource>();
      if (!source->open(f->path)) return void(in.error = f->path + ": cannot open: " + std::strerror(errno));
      file.bytes = source.get();
      in.open.push_back(std::move(source));
    }
    in.side.files.push_back(file);
  }
}

}  // namespace tensorgate::cli
