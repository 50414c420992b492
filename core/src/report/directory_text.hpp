#pragma once
// A model directory's lines of the text report beyond its findings.
#include <string>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

// A model directory's files of no weights, one line: "  no weights: README.md, config.json"
// (the first 20 names, then how many more); empty when there are none.
std::string other_files_line(const DirectorySummary& s);

}  // namespace tensorgate::detail
