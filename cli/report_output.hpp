#pragma once
// What `check` and `audit` share: the --format and --color options, and writing the report
// document to standard output.
#include <string>
#include <vector>

#include "command_line.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

struct OutputOptions {
  std::string format = "text";  // text, json or sarif
  std::string color = "auto";   // auto, always or never
};

void add_output_options(OptionTable& t, OutputOptions& o);
// Throws UsageError for a value outside the lists.
void check_output_options(const OutputOptions& o);

// The report in the chosen format on standard output; colour only when asked for or on a
// terminal (NO_COLOR and TERM=dumb respected).
void write_report(const std::vector<CheckedFile>& files, const OutputOptions& o, ReportOptions ro);

}  // namespace tensorgate::cli
