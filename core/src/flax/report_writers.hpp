#pragma once
// A Flax summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1)
// and the text report's facts (report_text.cpp), registered as its SummaryOps
// (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_flax_summary(StepContext& c, const FlaxSummary& s, const ReportOptions& options);
std::string flax_text_facts(const FlaxSummary& s);

}  // namespace tensorgate::detail
