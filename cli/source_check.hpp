#pragma once
#include <string>
#include <string_view>

#include "input_source.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Validates one source through the push validator `format` chooses (by `name` and the first
// bytes): reads what the validator wants in chunks of at most 1 MiB, skips what it only counts
// once the size is known, stops early only where the source asks to. The report is the
// validator's, or `error` when the source failed (never a verdict on bytes that were not had).
// `budget` (the CLI's --memory-budget) is charged for what the validator holds.
CheckedFile check_source(InputSource& source, const std::string& path, std::string_view name,
                         const Limits& limits, FormatChoice format, MemoryBudget* budget = nullptr);

}  // namespace tensorgate::cli
