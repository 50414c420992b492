#pragma once
// One side of `tensorgate diff` from disk: a file, or a model directory's model files, each
// validated as `tensorgate check` validates it, with config.json and (for --values) the files
// opened for reading. The seam for other inputs: a PyTorch checkpoint is a file whose report
// carries its tensor table once its scanner lands (nothing here changes); a remote model is
// one more way to fill a DiffInput (reports and ByteSources), next to this one.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "file_source.hpp"
#include "tensorgate/diff.hpp"
#include "tensorgate/memory_budget.hpp"

namespace tensorgate::cli {

struct DiffInput {
  std::vector<CheckedFile> checked;  // the model's files (and the directory's own report, last)
  std::optional<std::string> config_json;
  std::vector<std::unique_ptr<FileSource>> open;
  DiffSide side;                     // points into the members above: do not copy
  std::optional<std::string> error;  // the input cannot be used (exit status 2)
};

// Fills `in` for `path`; with `values`, opens every model file for reading.
void gather_diff_input(const std::string& path, bool values, MemoryBudget& budget, DiffInput& in);

}  // namespace tensorgate::cli
