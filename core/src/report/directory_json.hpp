#pragma once
// A model directory's entry in the JSON report: format "model-directory", its cross-file
// findings, and the summary in the shape of the hub's safetensors metadata.
#include "tensorgate/json_writer.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

void write_directory_fields(JsonWriter& w, const DirectoryReport& report);

}  // namespace tensorgate::detail
