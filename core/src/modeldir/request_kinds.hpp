#pragma once
#include <boost/json/value.hpp>
#include <optional>
#include <string>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

// The inventory of a /v1/validate report of a torch checkpoint (pickle, zip), a GGUF file or an
// ONNX model (its initializers);
// nothing for reports of other kinds (no weights); `error` set when the report is not of the
// documented shape.
std::optional<FileInventory> checkpoint_from_report(const std::string& name, const boost::json::value& report,
                                                    std::string& error);

}  // namespace tensorgate::detail
