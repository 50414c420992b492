#pragma once
// A legacy GGML summary in the reports: its JSON "summary" (report_json.cpp, schema
// tensorgate.report/1) and the text report's facts (report_text.cpp), registered as its
// SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_ggml_summary(StepContext& c, const GgmlSummary& s, const ReportOptions& options);
std::string ggml_text_facts(const GgmlSummary& s);

}  // namespace tensorgate::detail
