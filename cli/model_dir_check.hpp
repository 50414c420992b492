#pragma once
#include <string>
#include <vector>

#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Checks a model directory: validates each of its weights files (appended to `out` as
// "<dir>/<file>"), then the files together (appended as "<dir>"). Only files the directory
// listing holds are opened; names in the index are never used as paths.
void check_model_directory(const std::string& dir, FormatChoice format, std::vector<CheckedFile>& out,
                           MemoryBudget* budget = nullptr);

}  // namespace tensorgate::cli
