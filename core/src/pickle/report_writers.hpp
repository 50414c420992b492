#pragma once
// A pickle summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1) and the
// text report's facts (report_text.cpp), registered as its SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_pickle_summary(StepContext& c, const PickleSummary& s, const ReportOptions& options);
std::string pickle_text_facts(const PickleSummary& s);

}  // namespace tensorgate::detail
