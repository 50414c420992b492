#pragma once
// Split GGUF sets among the files given on the command line (family GS): shards of one prefix
// in one directory, two or more of them given together, are also checked as a set. One entry
// per set, path "<dir>/<prefix>-*-of-MMMMM.gguf", in the report shape of a model directory.
#include <vector>

#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// `files` holds the checked files in command-line order; `given` tells which of them were
// given as files (not found in a model directory). The set entries are appended.
void check_given_split_sets(std::vector<CheckedFile>& files, const std::vector<bool>& given, const Limits& limits);

}  // namespace tensorgate::cli
