#pragma once
// The JSON "summary" of the file kinds beyond safetensors and GGUF (schema tensorgate.report/1:
// $defs/pickle_summary, zip_summary, tar_summary, npy_summary, lfs_pointer_summary, unknown_summary). The
// writers pause between list items (steps.hpp).
#include "common/summary_steps.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

// A shape as a JSON array of dimensions (a .npy array's, a state dict tensor's).
void write_shape(JsonWriter& w, const std::vector<std::uint64_t>& shape);
Steps write_pickle_summary(StepContext& c, const PickleSummary& s, const ReportOptions& options);
Steps write_zip_summary(StepContext& c, const ZipSummary& s, const ReportOptions& options);
Steps write_npy_summary(StepContext& c, const NpySummary& s, const ReportOptions& options);
Steps write_tar_summary(StepContext& c, const TarSummary& s, const ReportOptions& options);
Steps write_archive_pickles(StepContext& c, const std::vector<ZipPickle>& pickles, std::uint64_t not_listed,
                            const ReportOptions& options);
// Whether the report has a summary of one of these kinds, and that summary.
bool has_kind_summary(const Report& r);
Steps write_kind_summary(StepContext& c, const Report& r, const ReportOptions& options);

}  // namespace tensorgate::detail
