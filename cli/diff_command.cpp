#include "diff_command.hpp"

#include <boost/algorithm/string/split.hpp>
#include <cstdio>

#include "check_command.hpp"
#include "command_line.hpp"
#include "diff_inputs.hpp"
#include "file_check.hpp"
#include "network.hpp"
#include "remote_flags.hpp"

namespace tensorgate::cli {
namespace {

const char* const kUsage =
    "usage: tensorgate diff [--format text|json|sarif|markdown] [--values] [--fail-on KINDS]\n"
    "                       [--header 'NAME: VALUE']... [--ca-file FILE]\n"
    "                       [--connect-timeout S] [--read-timeout S] [--retries N] OLD NEW\n"
    "What changed from OLD to NEW, tensor by tensor (docs/diff.md). OLD and NEW are each a\n"
    "safetensors, GGUF or PyTorch checkpoint file or a model directory (single file or\n"
    "sharded), local or an\n"
    "http(s) URL (a URL ending in / is a model repository, as for tensorgate check; docs/remote.md).\n"
    "  Without --values only the headers are read: tensors added, removed, renamed (same dtype\n"
    "  and shape and a name pattern), dtype and shape changes, metadata and config.json keys,\n"
    "  parameter totals. --values also streams both sides' data once and reports, per changed\n"
    "  tensor, whether its bytes are identical, the largest absolute and relative difference and\n"
    "  the fraction of elements that changed (and finds renames by content).\n"
    "  --fail-on KINDS  comma-separated change kinds that fail the gate (exit status 1):\n"
    "                   added, removed, renamed, dtype, shape, values, metadata, config; all;\n"
    "                   none (the default: report everything, fail on nothing)\n"
    "  --format markdown writes a summary for a pull-request comment.\n"
    "Exit status: 0 no change of a --fail-on kind, 1 such a change or an invalid input,\n"
    "2 usage or I/O error.\n";

struct DiffOptionsText {
  std::string format = "text";
  bool values = false;
  std::vector<std::string> fail_on;
  std::vector<std::string> paths;
  RemoteFlags remote;
};

ChangeSet parse_fail_on(const std::vector<std::string>& texts) {
  ChangeSet set;
  for (const std::string& text : texts) {
    std::vector<std::string> items;
    boost::algorithm::split(items, text, [](char c) { return c == ','; });
    for (const std::string& item : items) {
      if (item == "all") set.add(ChangeSet::all());
      else if (item == "none" || item.empty()) continue;
      else if (const auto k = change_kind_from_id(item)) set.add(*k);
      else throw UsageError("--fail-on: unknown change kind '" + item + "'");
    }
  }
  return set;
}

void parse(const std::vector<std::string>& args, DiffOptionsText& o) {
  OptionTable named;
  named.add("format", &o.format).add("values", &o.values).add("fail-on", &o.fail_on);
  add_remote_flags(named, o.remote);
  o.paths = parse_command_line(args, named, kUsage);
  if (o.format != "text" && o.format != "json" && o.format != "sarif" && o.format != "markdown")
    throw UsageError("--format must be text, json, sarif or markdown");
  if (o.paths.size() != 2) throw UsageError("OLD and NEW are needed, and nothing else");
}

void write(const DiffReport& r, const std::string& format) {
  const auto sink = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
  const Limits limits;
  if (format == "json") write_diff_json(r, sink), sink("\n");
  else if (format == "sarif") write_diff_sarif(r, sink), sink("\n");
  else if (format == "markdown") write_diff_markdown(r, limits.diff, sink);
  else write_diff_text(r, limits.diff, sink);
  std::fflush(stdout);
}

}  // namespace

int run_diff(const std::vector<std::string>& args) {
  DiffOptionsText o;
  DiffOptions options;
  CheckSettings settings;  // the remote client's options and TLS, as for tensorgate check
  try {
    parse(args, o);
    const bool remote = network::names_a_url(o.paths) || !o.remote.ca_file.empty();
    if (const auto status = network::hand_over("diff", args, remote)) return *status;
    options.fail_on = parse_fail_on(o.fail_on);
    apply_remote_flags(o.remote, o.paths, settings);
  } catch (const UsageError& e) {
    return refuse_command_line("diff", e, kUsage);
  }
  options.values = o.values;
  CountingBudget budget(kDefaultCliMemoryBudget);  // both sides' headers are held together
  std::shared_ptr<void> session;  // one remote session for both sides, made for the first URL
  DiffInput old_input, new_input;
  gather_diff_input(o.paths[0], o.values, budget, settings, session, old_input);
  if (!old_input.error) gather_diff_input(o.paths[1], o.values, budget, settings, session, new_input);
  for (const DiffInput* in : {&old_input, &new_input}) {
    if (!in->error) continue;
    // The document still says what went wrong (its "error"), as the audit's does.
    DiffReport failed;
    failed.old_side.path = o.paths[0];
    failed.new_side.path = o.paths[1];
    failed.fail_on = options.fail_on;
    failed.io_error = *in->error;
    write(failed, o.format);
    std::fprintf(stderr, "tensorgate diff: %s\n", in->error->c_str());
    return kUsageOrIo;
  }
  const DiffReport report = diff_models(old_input.side, new_input.side, options);
  write(report, o.format);
  if (report.io_error) return kUsageOrIo;
  return report.gate_failed ? kInvalid : 0;
}

}  // namespace tensorgate::cli
