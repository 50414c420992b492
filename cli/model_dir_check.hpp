#pragma once
#include <string>
#include <vector>

#include "tensorgate/detect.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Checks a model directory: looks at every regular file, validates each model file (appended to
// `out` as "<dir>/<file>"; see is_checked_file), lists the others in the directory summary as
// no weights, then checks the files together (appended as "<dir>"). Only files the directory
// listing holds are opened; names in the index are never used as paths.
void check_model_directory(const std::string& dir, FormatChoice format, std::vector<CheckedFile>& out);

}  // namespace tensorgate::cli
