#pragma once
// A safetensors summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1) and the
// text report's facts (report_text.cpp), registered as its SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/safetensors/summary.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_safetensors_summary(StepContext& c, const SafetensorsSummary& s, const ReportOptions& options);
std::string safetensors_text_facts(const SafetensorsSummary& s);

}  // namespace tensorgate::detail
