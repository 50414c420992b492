#pragma once
#include <string>
#include <vector>

namespace tensorgate::cli {

// tensorgate audit SRC GGUF [--format text|json|sarif]: whether GGUF holds exactly the
// checkpoint of the model directory SRC (docs/audit.md). Exit status: 0 faithful, 1 not,
// 2 usage or I/O error.
int run_audit(const std::vector<std::string>& args);

}  // namespace tensorgate::cli
