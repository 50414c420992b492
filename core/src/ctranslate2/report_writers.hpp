#pragma once
// A CTranslate2 summary in the reports: its JSON "summary" (report_json.cpp, schema
// tensorgate.report/1) and the text report's facts (report_text.cpp), registered as its
// SummaryOps (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_ctranslate2_summary(StepContext& c, const CTranslate2Summary& s, const ReportOptions& options);
std::string ctranslate2_text_facts(const CTranslate2Summary& s);

}  // namespace tensorgate::detail
