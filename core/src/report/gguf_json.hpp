#pragma once
// The JSON "summary" of a GGUF report (schema tensorgate.report/1, $defs/gguf_summary).
#include "tensorgate/gguf.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

void write_gguf_summary(JsonWriter& w, const GgufSummary& s, const ReportOptions& options);

}  // namespace tensorgate::detail
