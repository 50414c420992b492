#pragma once
// A GGUF summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1) and the
// text report's facts (report_text.cpp), registered as its SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_gguf_summary(StepContext& c, const GgufSummary& s, const ReportOptions& options);
std::string gguf_text_facts(const GgufSummary& s);

}  // namespace tensorgate::detail
