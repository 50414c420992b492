#pragma once
#include <string>
#include <vector>

#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Checks a model directory: looks at every regular file, validates each model file (appended to
// `out` as "<dir>/<file>"; see is_checked_file), judges its chat template files (those at the
// top and the *.jinja files of its subdirectories: nested_template_files), lists the
// others in the directory summary as no weights, then checks the files together (appended as
// "<dir>"). Only files the directory listing holds are opened; names in the index are never
// used as paths. `limits` carries the policy in force (--policy).
void check_model_directory(const std::string& dir, FormatChoice format, std::vector<CheckedFile>& out,
                           MemoryBudget* budget = nullptr, const Limits& limits = Limits{});

// Adds a checked model file to the directory's inventory by its name there: its report's
// inventory (a safetensors file's tensors, a torch checkpoint's state dict, a GGUF or a
// model-named file of no model format by its verdict; a GGUF report's facts for the split-set
// checks, GS, too), or an invalid entry of kind `content` for a file that could not be read (the
// remote repository check shares this with the local one).
void add_weights(ModelDirectory& md, const std::string& name, const CheckedFile& checked,
                 Format content = Format::safetensors);

}  // namespace tensorgate::cli
