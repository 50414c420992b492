#pragma once
// The headline facts of the kinds beyond safetensors and GGUF, for the text report:
// ", protocol 2, 5 pickles (legacy torch.save), 4 globals (1 dangerous), 2 tensors".
#include <string>

#include "tensorgate/model_dir.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::detail {

std::string kind_facts(const Report& r);
// A model directory's files of no weights, one line: "  no weights: README.md, config.json"
// (the first 20 names, then how many more); empty when there are none.
std::string other_files_line(const DirectorySummary& s);

}  // namespace tensorgate::detail
