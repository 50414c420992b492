#pragma once
#include <string>
#include <vector>

namespace tensorgate::cli {

// tensorgate diff OLD NEW [--format text|json|sarif|markdown] [--values] [--fail-on KINDS]:
// what changed between two models, tensor by tensor (docs/diff.md). Exit status: 0 no change of
// a --fail-on kind, 1 such a change (or an input is invalid), 2 usage or I/O error.
int run_diff(const std::vector<std::string>& args);

}  // namespace tensorgate::cli
