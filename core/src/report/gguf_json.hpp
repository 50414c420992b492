#pragma once
// The JSON "summary" of a GGUF report (schema tensorgate.report/1, $defs/gguf_summary). The
// writer pauses between tensors (steps.hpp).
#include "common/summary_steps.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

Steps write_gguf_summary(StepContext& c, const GgufSummary& s, const ReportOptions& options);

}  // namespace tensorgate::detail
