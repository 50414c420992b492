#pragma once
// Split GGUF sets among the files given on the command line (family GS): two or more GGUF files
// of one directory given together that are named as shards or carry split metadata are also
// checked as sets. One entry per directory, path "<dir>/<prefix>-*-of-MMMMM.gguf" (or
// "<dir>/*.gguf" for several sets), in the report shape of a model directory.
#include <vector>

#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// `files` holds the checked files in command-line order; `given` tells which of them were
// given as files (not found in a model directory). The set entries are appended.
void check_given_split_sets(std::vector<CheckedFile>& files, const std::vector<bool>& given, const Limits& limits);

}  // namespace tensorgate::cli
