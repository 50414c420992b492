#pragma once
// A SavedModel summary in the reports: its JSON "summary" (report_json.cpp, schema
// tensorgate.report/1) and the text report's facts (report_text.cpp), registered as its
// SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/savedmodel.hpp"

namespace tensorgate::detail {

Steps write_savedmodel_summary(StepContext& c, const SavedModelSummary& s, const ReportOptions& options);
std::string savedmodel_text_facts(const SavedModelSummary& s);

}  // namespace tensorgate::detail
