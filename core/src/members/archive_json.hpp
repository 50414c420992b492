#pragma once
// What the JSON summaries of archives share, a zip's entries and a tar's members alike: the
// pickles inside ("pickles", each with its entry, verdict and summary, then
// "pickles_not_listed") and the .npy arrays ("arrays").
#include <cstdint>
#include <vector>

#include "common/summary_steps.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate::detail {

Steps write_archive_pickles(StepContext& c, const std::vector<ZipPickle>& pickles, std::uint64_t not_listed,
                            const ReportOptions& options);
Steps write_archive_arrays(StepContext& c, const std::vector<NpySummary>& arrays, const ReportOptions& options);

}  // namespace tensorgate::detail
