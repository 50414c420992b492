#pragma once
// An OpenVINO IR summary in the reports: its JSON "summary" (report_json.cpp, schema
// tensorgate.report/1) and the text report's facts (report_text.cpp), registered as its
// SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_openvino_summary(StepContext& c, const OpenVinoSummary& s, const ReportOptions& options);
std::string openvino_text_facts(const OpenVinoSummary& s);

}  // namespace tensorgate::detail
