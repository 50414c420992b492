#include "report_output.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tensorgate::cli {
void add_output_options(OptionTable& t, OutputOptions& o) {
  t.add("format", &o.format).add("color", &o.color);
}

void check_output_options(const OutputOptions& o) {
  if (o.format != "text" && o.format != "json" && o.format != "sarif")
    throw UsageError("--format must be text, json or sarif");
  if (o.color != "auto" && o.color != "always" && o.color != "never")
    throw UsageError("--color must be auto, always or never");
}

namespace {

bool use_colour(const std::string& mode) {
  if (mode != "auto") return mode == "always";
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && !(term && std::string(term) == "dumb");
}

}  // namespace

void write_report(const std::vector<CheckedFile>& files, const OutputOptions& o, ReportOptions ro) {
  ro.colour = use_colour(o.color);
  const auto sink = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
  if (o.format == "json") {
    write_json_report(files, ro, sink);
    sink("\n");
  } else if (o.format == "sarif") {
    write_sarif_report(files, ro, sink);
    sink("\n");
  } else {
    write_text_report(files, ro, sink);
  }
  std::fflush(stdout);
}

}  // namespace tensorgate::cli
