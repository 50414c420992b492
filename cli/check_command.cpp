#include "check_command.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "file_check.hpp"
#include "inputs.hpp"
#include "model_dir_check.hpp"
#include "report_output.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {
namespace po = boost::program_options;

namespace {

struct CheckOptions {
  OutputOptions output;
  std::string fail_on = "error";
  std::string input_format = "auto";
  bool no_tensors = false;
  std::vector<std::string> paths;
};

const char* const kUsage =
    "usage: tensorgate check [--format text|json|sarif] [--fail-on error|warning]\n"
    "                        [--color auto|always|never] [--no-tensors]\n"
    "                        [--input-format auto|safetensors|gguf|pickle|zip|npy] PATH...\n"
    "Validates model files: safetensors, GGUF, pickles and PyTorch checkpoints, zips, NumPy .npy.\n"
    "A directory is walked and every regular file looked at: model files are checked, a model\n"
    "directory as a whole; - reads standard input. --input-format auto (the default) lets the\n"
    "content decide (a name that says otherwise is FK.extension); Git LFS pointers, empty files\n"
    "and content of no model format are errors (FK.lfs-pointer, FK.empty, FK.unknown).\n"
    "Exit status: 0 all valid, 1 something invalid, 2 usage or I/O error, 3 nothing checkable found.\n";

bool parse(const std::vector<std::string>& args, CheckOptions& o) {
  po::options_description named("options");
  named.add_options()
      ("help,h", "show this help")
      ("fail-on", po::value(&o.fail_on), "error or warning")
      ("input-format", po::value(&o.input_format), "auto, safetensors, gguf, pickle, zip or npy")
      ("no-tensors", po::bool_switch(&o.no_tensors), "leave the tensor inventory out of JSON")
      ("path", po::value(&o.paths), "file or directory");
  add_output_options(named, o.output);
  po::positional_options_description positional;
  positional.add("path", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(named).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::fputs(kUsage, stdout);
    std::exit(kAllValid);
  }
  check_output_options(o.output);
  if (o.fail_on != "error" && o.fail_on != "warning")
    throw po::error("--fail-on must be error or warning");
  if (!parse_format_choice(o.input_format)) throw po::error("--input-format must be auto, safetensors, gguf, pickle, zip or npy");
  if (o.paths.empty()) throw po::error("no PATH given");
  return true;
}

template <typename R>  // Report or DirectoryReport
bool fails(const R& r, bool on_warning) {
  if (!r.valid) return true;
  if (!on_warning) return false;
  for (const Finding& f : r.findings)
    if (f.severity == Severity::warning) return true;
  return false;
}

int exit_status(const std::vector<CheckedFile>& files, bool on_warning) {
  bool io_error = false, failed = false;
  for (const CheckedFile& f : files) {
    io_error = io_error || f.error.has_value();
    failed = failed || (f.report && fails(*f.report, on_warning)) || (f.directory && fails(*f.directory, on_warning));
  }
  if (io_error) return kUsageOrIo;
  if (failed) return kInvalid;
  if (files.empty()) return kNothingFound;
  return kAllValid;
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  CheckOptions o;
  try {
    parse(args, o);
  } catch (const po::error& e) {
    std::fprintf(stderr, "tensorgate check: %s\n%s", e.what(), kUsage);
    return kUsageOrIo;
  }
  std::vector<CheckedFile> files;
  const FormatChoice input_format = *parse_format_choice(o.input_format);
  for (InputItem& item : expand_inputs(o.paths)) {
    if (item.error) {
      files.push_back(CheckedFile{item.path, std::nullopt, *item.error});
    } else if (item.model_directory) {
      check_model_directory(item.path, input_format, files);
    } else {
      files.push_back(check_file(item.path, Limits{}, input_format));
    }
  }
  if (files.empty() && o.output.format == "text") std::fputs("nothing checkable found\n", stderr);
  ReportOptions ro;
  ro.include_tensors = !o.no_tensors;
  write_report(files, o.output, ro);
  return exit_status(files, o.fail_on == "warning");
}

}  // namespace tensorgate::cli
