#pragma once
// A .npy summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1) and the
// text report's facts (report_text.cpp), registered as its SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/npy.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_npy_summary(StepContext& c, const NpySummary& s, const ReportOptions& options);
std::string npy_text_facts(const NpySummary& s);

}  // namespace tensorgate::detail
