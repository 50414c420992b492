#pragma once
#include <string>

#include "tensorgate/detect.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Validates one file ("-" is standard input) in bounded chunks: the header is read, the data
// of a regular file is skipped by its size (a 100 GB file costs what a 1 MB one does), and a
// pipe is read to its end and counted. The format is chosen as make_validator() does, by the
// file's name and first bytes unless `format` says otherwise.
CheckedFile check_file(const std::string& path, const Limits& limits,
                       FormatChoice format = FormatChoice::auto_detect);

}  // namespace tensorgate::cli
