#pragma once
// An HDF5 summary in the reports: its JSON "summary" (report_json.cpp, schema tensorgate.report/1)
// and the text report's facts (report_text.cpp), registered as its SummaryOps
// (tensorgate/summary.hpp).
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_hdf5_summary(StepContext& c, const Hdf5Summary& s, const ReportOptions& options);
std::string hdf5_text_facts(const Hdf5Summary& s);

}  // namespace tensorgate::detail
