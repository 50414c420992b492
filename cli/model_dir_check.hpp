#pragma once
#include <string>
#include <vector>

#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Checks a model directory: validates each of its weights files (appended to `out` as
// "<dir>/<file>"), then the files together, its chat template files included (appended as
// "<dir>"). Only files the directory listing holds are opened; names in the index are never
// used as paths.
void check_model_directory(const std::string& dir, FormatChoice format, std::vector<CheckedFile>& out,
                           MemoryBudget* budget = nullptr);

// Adds a checked weights file to the directory's inventory by its name there: a safetensors
// report's tensors, a GGUF report's facts for the split-set checks (GS), or an invalid entry
// for a .safetensors or .gguf file that could not be read (the remote repository check shares
// this with the local one).
void add_weights(ModelDirectory& md, const std::string& name, const CheckedFile& checked);

}  // namespace tensorgate::cli
