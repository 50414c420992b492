#include "diff_inputs.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "file_check.hpp"
#include "file_source.hpp"
#include "model_dir_check.hpp"
#include "network.hpp"
#include "url.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

bool is_weights(const CheckedFile& f) { return f.report.has_value() && !f.directory; }

// The model's files: those the directory's summary names (the shards of the index, or
// model.safetensors), else every weights file the listing holds (a directory of one GGUF).
std::vector<const CheckedFile*> model_files(const std::vector<CheckedFile>& checked) {
  std::vector<const CheckedFile*> files;
  if (checked.empty()) return files;
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

}  // namespace

std::optional<std::string> unusable(const CheckedFile& f) {
  if (f.error) return f.path + ": " + *f.error;
  if (f.report && f.report->aborted) return f.path + ": check aborted (" + f.report->aborted->limit + "): " + f.report->aborted->message;
  return std::nullopt;
}

void add_model_files(DiffInput& in, bool values, const OpenModelFile& open) {
  const std::vector<const CheckedFile*> files = model_files(in.checked);
  if (files.empty()) return void(in.error = in.side.path + ": no weights files (safetensors, GGUF, PyTorch checkpoints, ONNX)");
  for (const CheckedFile* f : files) {
    DiffFile file{f->path, &*f->report, nullptr};
    if (values) {
      std::string error;
      std::unique_ptr<ByteSource> source = open(*f, error);
      if (!source) return void(in.error = error);
      file.bytes = source.get();
      in.open.push_back(std::move(source));
    }
    in.side.files.push_back(file);
  }
}

void gather_diff_input(const std::string& path, bool values, MemoryBudget& budget, const CheckSettings& settings,
                       std::shared_ptr<void>& session, DiffInput& in) {
  if (remote::looks_like_url(path)) return network::gather_diff_input(path, values, budget, settings, session, in);
  in.side.path = path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    check_model_directory(path, FormatChoice::auto_detect, in.checked, &budget);
    for (const CheckedFile& f : in.checked)
      if (auto why = unusable(f)) return void(in.error = *why);
    if (in.checked.back().directory) in.side.directory = &*in.checked.back().directory;
    const fs::path config = fs::path(path) / "config.json";
    if (fs::is_regular_file(config, ec)) in.config_json = read_small_file(config.string(), Limits{}.directory.max_json_bytes);
    if (in.config_json) in.side.config_json = *in.config_json;
  } else {
    in.checked.push_back(check_file(path, Limits{}, FormatChoice::auto_detect, &budget));
    if (auto why = unusable(in.checked.back())) return void(in.error = *why);
  }
  add_model_files(in, values, [](const CheckedFile& f, std::string& error) -> std::unique_ptr<ByteSource> {
    auto source = std::make_unique<FileSource>();
    if (source->open(f.path)) return source;
    error = f.path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  });
}

}  // namespace tensorgate::cli
