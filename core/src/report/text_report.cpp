// Text for people: one line per file, then its findings in aligned columns. Colour only when
// the caller says so (a terminal).
#include <algorithm>
#include <string>

#include "report/audit_writers.hpp"
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "report/directory_text.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate {
namespace {

using detail::plural;
using detail::commas;

struct Style {
  bool on;
  std::string_view operator()(std::string_view code) const { return on ? code : ""; }
};
constexpr std::string_view kRed = "\x1b[31m", kYellow = "\x1b[33m", kGreen = "\x1b[32m",
                           kDim = "\x1b[2m", kBold = "\x1b[1m", kReset = "\x1b[0m";

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

// "dir: valid model directory, llama, 30 layers, 134,515,008 parameters (BF16), 1 file"
std::string directory_headline(const DirectoryReport& d, Style st) {
  std::uint64_t errors = 0, warnings = 0;
  for (const Finding& x : d.findings) {
    errors += x.severity == Severity::error;
    warnings += x.severity == Severity::warning;
  }
  std::string line = d.valid ? std::string(st(kGreen)) + "valid" : std::string(st(kRed)) + "INVALID";
  line += std::string(st(kReset)) + " model directory";
  if (!d.valid) line += ", " + plural(errors, "error");
  if (warnings) line += ", " + plural(warnings, "warning");
  const DirectorySummary& s = d.summary;
  if (s.architecture) line += ", " + detail::printable(*s.architecture);
  if (s.keras) line += ", Keras " + detail::quoted(s.keras->model_class, 40) + " of " + plural(s.keras->objects, "object");
  if (s.layers) line += ", " + plural(*s.layers, "layer");
  line += ", " + plural(s.parameters, "parameter");
  std::string dtypes;
  for (const auto& [dtype, count] : s.parameters_by_dtype) dtypes += (dtypes.empty() ? "" : " ") + dtype;
  if (!dtypes.empty()) line += " (" + detail::printable(dtypes) + ")";
  line += ", " + plural(s.files.size(), s.sharded ? "shard" : "file");
  if (s.split_sets.size() > 1) line += ", " + plural(s.split_sets.size(), "split GGUF set");
  if (!s.chat_templates.empty()) line += ", " + plural(s.chat_templates.size(), "chat template");
  return line;
}

// "tokenizer_config.json: INVALID chat template file, 1 error, 2 templates"
std::string template_headline(const ChatTemplateFileReport& r, Style st) {
  std::uint64_t errors = 0, warnings = 0;
  for (const Finding& x : r.findings) {
    errors += x.severity == Severity::error;
    warnings += x.severity == Severity::warning;
  }
  std::string line = r.valid ? std::string(st(kGreen)) + "valid" : std::string(st(kRed)) + "INVALID";
  line += std::string(st(kReset)) + " chat template file";
  if (!r.valid) line += ", " + plural(errors + r.findings_dropped, "error");
  if (warnings) line += ", " + plural(warnings, "warning");
  return line + ", " + plural(r.template_count, "template");
}

std::string headline(const CheckedFile& f, Style st) {
  std::string line = std::string(st(kBold)) + detail::printable(f.path) + std::string(st(kReset)) + ": ";
  if (f.directory) return line + directory_headline(*f.directory, st);
  if (f.chat_template) return line + template_headline(*f.chat_template, st);
  if (!f.report)
    return line + std::string(st(kRed)) + "error" + std::string(st(kReset)) + ": " + detail::printable(f.error.value_or(""));
  const Report& r = *f.report;
  if (r.aborted) return line + std::string(st(kRed)) + "not checked" + std::string(st(kReset)) + ": " + detail::printable(r.aborted->message);
  std::uint64_t errors = 0, warnings = 0;
  for (const Finding& x : r.findings) {
    errors += x.severity == Severity::error;
    warnings += x.severity == Severity::warning;
  }
  line += r.valid ? std::string(st(kGreen)) + "valid" : std::string(st(kRed)) + "INVALID";
  line += std::string(st(kReset)) + " " + std::string(format_name(r.format));
  if (!r.valid) line += ", " + plural(errors + r.findings_dropped, "error");
  if (warnings) line += ", " + plural(warnings, "warning");
  if (r.summary) line += r.summary.ops().text_facts(r.summary.value());  // the format's own facts
  if (r.canonical) line += *r.canonical ? ", canonical" : ", not canonical";
  return line;
}

std::string finding_line(const Finding& x, std::size_t id_width, std::size_t offset_width, Style st) {
  const std::string_view colour = x.severity == Severity::error     ? kRed
                                  : x.severity == Severity::warning ? kYellow
                                                                    : kDim;
  std::string line = "  " + std::string(st(colour)) + pad(std::string(severity_name(x.severity)), 8) +
                     std::string(st(kReset)) + pad(std::string(rule_info(x.rule).id), id_width + 2);
  line += pad(x.offset ? "@" + std::to_string(*x.offset) : "", offset_width + 2);
  if (x.tensor) line += "tensor " + detail::quoted(*x.tensor) + ": ";
  return line + detail::printable(x.message);
}

}  // namespace

void write_text_report(std::span<const CheckedFile> files, const ReportOptions& options,
                       const JsonWriter::Sink& sink) {
  const Style st{options.colour};
  std::size_t valid = 0;
  if (options.policy)
    sink(std::string(st(kDim)) + "policy " + detail::printable(options.policy->name) + " (sha256 " + options.policy->sha256 + ")" +
         std::string(st(kReset)) + "\n");
  for (const CheckedFile& f : files) {
    if (f.audit) {  // a table of its own (docs/audit.md)
      sink(detail::audit_text(f.path, *f.audit, options.colour));
      valid += f.audit->faithful;
      continue;
    }
    std::string line = headline(f, st);
    if (f.bytes_transferred) line += std::string(st(kDim)) + " (" + plural(*f.bytes_transferred, "byte") + " transferred)" + std::string(st(kReset));
    sink(line + "\n");
    const std::vector<Finding>* findings = f.report          ? &f.report->findings
                                           : f.directory     ? &f.directory->findings
                                           : f.chat_template ? &f.chat_template->findings
                                                             : nullptr;
    if (!findings) continue;
    valid += f.report ? f.report->valid : f.directory ? f.directory->valid : f.chat_template->valid;
    std::size_t id_width = 0, offset_width = 0;
    for (const Finding& x : *findings) {
      id_width = std::max(id_width, rule_info(x.rule).id.size());
      if (x.offset) offset_width = std::max(offset_width, std::to_string(*x.offset).size() + 1);
    }
    for (const Finding& x : *findings) sink(finding_line(x, id_width, offset_width, st) + "\n");
    if (f.directory) sink(detail::other_files_line(f.directory->summary));
    const std::uint64_t dropped = f.report          ? f.report->findings_dropped
                                  : f.directory     ? f.directory->findings_dropped
                                  : f.chat_template ? f.chat_template->findings_dropped
                                                    : 0;
    if (dropped) sink("  ... and " + plural(dropped, "more finding") + "\n");
  }
  if (files.size() > 1)
    sink(plural(files.size(), "file") + ": " + commas(valid) + " valid, " +
         commas(files.size() - valid) + " not\n");
}

}  // namespace tensorgate
