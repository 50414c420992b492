#include "check_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "check_runner.hpp"
#include "command_line.hpp"
#include "entry_list.hpp"
#include "network.hpp"
#include "policy_file.hpp"
#include "remote_flags.hpp"
#include "tensorgate/chat_template.hpp"
#include "report_output.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {
namespace {

struct CheckOptions {
  OutputOptions output;
  std::string fail_on = "error";
  std::string input_format = "auto";
  bool no_tensors = false;
  std::uint64_t max_report_tensors = UINT64_MAX;
  std::uint64_t memory_budget = kDefaultCliMemoryBudget;
  std::vector<std::string> paths;
  std::string list;
  std::string shard;
  unsigned jobs = 4;
  bool no_progress = false;
  std::string policy;  // --policy FILE (docs/policy.md)
  RemoteFlags remote;
};

const char* const kUsage =
    "usage: tensorgate check [--format text|json|sarif] [--fail-on error|warning|none]\n"
    "                        [--color auto|always|never] [--no-tensors]\n"
    "                        [--max-report-tensors N]\n"
    "                        [--input-format ";
// The format choices (tensorgate/formats.def) go here.
const char* const kUsageAfterChoices =
    "]\n"
    "                        [--memory-budget BYTES] [--policy FILE]\n"
    "                        [--jobs N]\n"
    "                        [--list FILE] [--shard K/N] [--no-progress]\n"
    "                        [--header 'NAME: VALUE']... [--ca-file FILE]\n"
    "                        [--connect-timeout S] [--read-timeout S] [--retries N]\n"
    "                        PATH|URL...\n"
    "Validates model files: safetensors, GGUF, pickles and PyTorch checkpoints, zips, NumPy .npy,\n"
    "and chat templates (";
// The files that hold chat templates (tensorgate/chat_template.hpp) go here.
const char* const kUsageRest =
    ").\n"
    "A directory is walked and every regular file looked at: model files are checked, a model\n"
    "directory as a whole; GGUF shards given together are also checked as a split set; - reads\n"
    "standard input. --input-format auto (the default) lets the content decide (a name that says\n"
    "otherwise is FK.extension); Git LFS pointers, empty files and content of no model format\n"
    "are errors (FK.lfs-pointer, FK.empty, FK.unknown).\n"
    "An http:// or https:// URL is checked where it lives, reading only what the validators need\n"
    "(HTTP range requests); a URL ending in / is a model repository (config.json, the index, the\n"
    "shards). TENSORGATE_TOKEN, when set, is sent as 'Authorization: Bearer ...' (docs/remote.md).\n"
    "--list FILE adds one path or URL per line; --shard K/N keeps the entries whose position is K\n"
    "modulo N (0 <= K < N), so N processes check every entry exactly once.\n"
    "--memory-budget (default 1 GiB) bounds what a file's check may hold; past it the file is\n"
    "not checked (aborted, exit status 2).\n"
    "--policy FILE adds the pickle globals, Keras modules and ONNX domains a team allows or\n"
    "denies (docs/policy.md); the report names the file and its SHA-256.\n"
    "Exit status: 0 all valid, 1 something invalid, 2 usage or I/O error or aborted,\n"
    "3 nothing checkable found;\n"
    "--fail-on none: 0 once the report is written (a scan whose report is the result).\n";

const char* usage() {
  static const std::string text =
      kUsage + format_choice_names("|") + kUsageAfterChoices + std::string(kChatTemplateFiles) + kUsageRest;
  return text.c_str();
}

void parse(const std::vector<std::string>& args, CheckOptions& o) {
  OptionTable named;
  named.add("fail-on", &o.fail_on)
      .add("input-format", &o.input_format)
      .add("no-tensors", &o.no_tensors)
      .add("max-report-tensors", &o.max_report_tensors)
      .add("memory-budget", &o.memory_budget)
      .add("jobs", &o.jobs, 'j')
      .add("list", &o.list)
      .add("shard", &o.shard)
      .add("no-progress", &o.no_progress)
      .add("policy", &o.policy);
  add_output_options(named, o.output);
  add_remote_flags(named, o.remote);
  o.paths = parse_command_line(args, named, usage());
  check_output_options(o.output);
  if (o.fail_on != "error" && o.fail_on != "warning" && o.fail_on != "none")
    throw UsageError("--fail-on must be error, warning or none");
  if (!parse_format_choice(o.input_format))
    throw UsageError("--input-format must be one of " + format_choice_names(", "));
  if (o.jobs < 1 || o.jobs > 256) throw UsageError("--jobs must be from 1 to 256");
  if (!o.shard.empty() && !parse_shard(o.shard)) throw UsageError("--shard must be K/N with 0 <= K < N");
  if (o.paths.empty() && o.list.empty()) throw UsageError("no PATH given");
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
    // An aborted check (one of our own limits) is no verdict: like an I/O error, status 2.
    io_error = io_error || f.error.has_value() || (f.report && f.report->aborted);
    failed = failed || (f.report && fails(*f.report, on_warning)) || (f.directory && fails(*f.directory, on_warning)) ||
             (f.chat_template && fails(*f.chat_template, on_warning));
  }
  if (io_error) return kUsageOrIo;
  if (failed) return kInvalid;
  if (files.empty()) return kNothingFound;
  return kAllValid;
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  CheckOptions o;
  CheckSettings settings;
  std::vector<std::string> entries;
  try {
    parse(args, o);
    // URLs are the network half's, in tensorgate-remote (network.hpp): one given, --ca-file, or
    // a list that names one. A list that is not a regular file (a pipe) can be read only once,
    // so it goes over unread.
    std::error_code ec;
    const bool list_once = !o.list.empty() && !std::filesystem::is_regular_file(o.list, ec);
    const bool remote = network::names_a_url(o.paths) || !o.remote.ca_file.empty() || list_once;
    if (const auto status = network::hand_over("check", args, remote)) return *status;
    entries = o.paths;
    if (!o.list.empty()) {
      std::string error;
      const auto listed = read_list(o.list, error);
      if (!listed) throw UsageError(error);
      if (const auto status = network::hand_over("check", args, network::names_a_url(*listed))) return *status;
      entries.insert(entries.end(), listed->begin(), listed->end());
    }
    if (!o.shard.empty()) entries = select_shard(entries, *parse_shard(o.shard));
    // Read here, after the hand-over: tensorgate-remote reads it from the same command line.
    if (!o.policy.empty()) settings.limits.policy = load_policy_file(o.policy, settings.limits.policy_file);
    apply_remote_flags(o.remote, entries, settings);
  } catch (const UsageError& e) {
    return refuse_command_line("check", e, usage());
  }
  settings.format = *parse_format_choice(o.input_format);
  settings.jobs = o.jobs;
  settings.memory_budget = o.memory_budget;
  settings.keep_tensors = !o.no_tensors;
  // On a terminal, for the checks that take a while: a list, or files over the network.
  const bool long_run = !o.list.empty() || settings.tls;
  std::optional<ProgressLine> progress;
  progress.emplace(long_run && !o.no_progress && ::isatty(STDERR_FILENO));
  settings.progress = &*progress;
  std::vector<CheckedFile> files = check_entries(entries, settings);
  progress.reset();  // the line is erased before the report is written
  if (files.empty() && o.output.format == "text" && o.shard.empty()) std::fputs("nothing checkable found\n", stderr);
  ReportOptions ro;
  ro.include_tensors = !o.no_tensors;
  ro.limits.max_tensors = o.max_report_tensors;
  if (settings.limits.policy) ro.policy = settings.limits.policy->identity;
  write_report(files, o.output, ro);
  if (o.fail_on == "none") return kAllValid;
  // A shard may rightly be empty (more shards than entries): that is not "nothing found".
  if (files.empty() && !o.shard.empty()) return kAllValid;
  return exit_status(files, o.fail_on == "warning");
}

}  // namespace tensorgate::cli
