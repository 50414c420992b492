#pragma once
// An ONNX summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1)
// and the text report's facts (report_text.cpp), registered as its SummaryOps
// (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_onnx_summary(StepContext& c, const OnnxSummary& s, const ReportOptions& options);
std::string onnx_text_facts(const OnnxSummary& s);

}  // namespace tensorgate::detail
