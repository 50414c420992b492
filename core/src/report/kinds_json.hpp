#pragma once
// The JSON "summary" of the file kinds beyond safetensors and GGUF (schema tensorgate.report/1:
// $defs/pickle_summary, zip_summary, npy_summary, lfs_pointer_summary, unknown_summary).
#include "tensorgate/report.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

// A shape as a JSON array of dimensions (a .npy array's, a state dict tensor's).
void write_shape(JsonWriter& w, const std::vector<std::uint64_t>& shape);
void write_pickle_summary(JsonWriter& w, const PickleSummary& s, const ReportOptions& options);
void write_zip_summary(JsonWriter& w, const ZipSummary& s, const ReportOptions& options);
void write_npy_summary(JsonWriter& w, const NpySummary& s, const ReportOptions& options);
// The summary of a report of one of these kinds; false when the report has none of them.
bool write_kind_summary(JsonWriter& w, const Report& r, const ReportOptions& options);

}  // namespace tensorgate::detail
