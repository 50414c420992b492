#include "audit_command.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "check_command.hpp"
#include "command_line.hpp"
#include "report_output.hpp"
#include "file_check.hpp"
#include "file_source.hpp"
#include "model_dir_check.hpp"
#include "tensorgate/audit.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

const char* const kUsage =
    "usage: tensorgate audit [--format text|json|sarif] [--color auto|always|never] SRC GGUF\n"
    "Proves, tensor by tensor, that GGUF holds exactly the checkpoint of the model directory SRC\n"
    "(config.json with model.safetensors, or shards and model.safetensors.index.json): names,\n"
    "shapes, values (after the converter's q/k permutation and exact widening; lossy types within\n"
    "their thresholds), generated tensors and metadata against config.json (docs/audit.md).\n"
    "Exit status: 0 faithful, 1 not faithful, 2 usage or I/O error.\n";

struct AuditOptions {
  OutputOptions output;
  std::vector<std::string> paths;
};

void parse(const std::vector<std::string>& args, AuditOptions& o) {
  OptionTable named;
  add_output_options(named, o.output);
  o.paths = parse_command_line(args, named, kUsage);
  check_output_options(o.output);
  if (o.paths.size() != 2) throw UsageError("SRC and GGUF are needed, and nothing else");
}

// What the audit needs from disk; `error` when a path cannot be used.
struct Gathered {
  std::vector<CheckedFile> source_files;  // each weights file, then the directory
  std::optional<std::string> config_json;
  CheckedFile gguf;
  std::vector<std::unique_ptr<FileSource>> open_files;
  std::optional<std::string> error;
};

Gathered gather(const std::string& src, const std::string& gguf_path, const Limits& limits) {
  Gathered g;
  std::error_code ec;
  if (!fs::is_directory(src, ec)) {
    g.error = src + ": not a model directory (config.json with its safetensors weights)";
    return g;
  }
  check_model_directory(src, FormatChoice::auto_detect, g.source_files);
  for (const CheckedFile& f : g.source_files)
    if (f.error) g.error = f.path + ": " + *f.error;
  if (fs::is_regular_file(fs::path(src) / "config.json", ec))
    g.config_json = read_small_file((fs::path(src) / "config.json").string(), limits.directory.max_json_bytes);
  g.gguf = check_file(gguf_path, limits, FormatChoice::gguf);
  if (g.gguf.error) g.error = *g.gguf.error;  // reported under the GGUF's own path
  return g;
}

// The directory's model files (its summary lists them: the shards the index names, or
// model.safetensors), each with its report and its bytes.
bool add_sources(Gathered& g, AuditInput& in) {
  const CheckedFile& dir = g.source_files.back();
  for (const std::string& name : dir.directory->summary.files) {
    for (const CheckedFile& f : g.source_files) {
      if (!f.report || fs::path(f.path).filename() != name) continue;
      auto file = std::make_unique<FileSource>();
      if (!file->open(f.path)) {
        g.error = f.path + ": cannot open: " + std::strerror(errno);
        return false;
      }
      in.sources.push_back(AuditSource{name, &*f.report, file.get(), file->size()});
      g.open_files.push_back(std::move(file));
    }
  }
  return true;
}

}  // namespace

int run_audit(const std::vector<std::string>& args) {
  AuditOptions o;
  try {
    parse(args, o);
  } catch (const UsageError& e) {
    return refuse_command_line("audit", e, kUsage);
  }
  const std::string& src = o.paths[0];
  const std::string& gguf_path = o.paths[1];
  const Limits limits;
  Gathered g = gather(src, gguf_path, limits);
  AuditInput in;
  auto gguf_file = std::make_unique<FileSource>();
  if (!g.error && add_sources(g, in) && !gguf_file->open(gguf_path))
    g.error = gguf_path + ": cannot open: " + std::strerror(errno);
  std::vector<CheckedFile> out;
  if (!g.error) {
    if (g.config_json) in.config_json = *g.config_json;
    in.directory = &*g.source_files.back().directory;
    in.gguf = &*g.gguf.report;
    in.gguf_bytes = gguf_file.get();
    in.gguf_file_size = gguf_file->size();
    AuditReport report = audit_conversion(in, limits);
    report.source_path = src;
    if (report.io_error) g.error = *report.io_error;
    else out.push_back(CheckedFile{gguf_path, std::nullopt, std::nullopt, std::nullopt, std::move(report)});
  }
  if (g.error) out.push_back(CheckedFile{gguf_path, std::nullopt, *g.error});
  write_report(out, o.output, ReportOptions{});
  if (g.error) return kUsageOrIo;
  return out.front().audit->faithful ? 0 : kInvalid;
}

}  // namespace tensorgate::cli
