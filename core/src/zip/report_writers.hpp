#pragma once
// A zip summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1) and the
// text report's facts (report_text.cpp), registered as its SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/zip.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_zip_summary(StepContext& c, const ZipSummary& s, const ReportOptions& options);
std::string zip_text_facts(const ZipSummary& s);

}  // namespace tensorgate::detail
