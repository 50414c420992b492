#pragma once
// A TFLite summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1)
// and the text report's facts (report_text.cpp), registered as its SummaryOps
// (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/tflite.hpp"

namespace tensorgate::detail {

Steps write_tflite_summary(StepContext& c, const TfliteSummary& s, const ReportOptions& options);
std::string tflite_text_facts(const TfliteSummary& s);

}  // namespace tensorgate::detail
