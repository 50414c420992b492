#pragma once
// A tar summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1) and the
// text report's facts (report_text.cpp), registered as its SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_tar_summary(StepContext& c, const TarSummary& s, const ReportOptions& options);
std::string tar_text_facts(const TarSummary& s);

}  // namespace tensorgate::detail
