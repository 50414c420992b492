#pragma once
// The files an ONNX model's external data names, looked up beside the model (OX.external-missing,
// OX.external-link, OX.external-short): never through a symbolic link, never opened.
#include <string>

#include "tensorgate/limits.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::cli {

// For the report of the file at `model_path` (a local path, not "-"); other reports are left alone.
void check_external_data(Report& report, const std::string& model_path, const Limits& limits);

}  // namespace tensorgate::cli
