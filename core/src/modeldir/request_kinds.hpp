#pragma once
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <set>
#include <string>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

// The inventory of a /v1/validate report of a torch checkpoint (pickle, zip), a GGUF file or an
// ONNX model (its initializers);
// nothing for reports of other kinds (no weights); `error` set when the report is not of the
// documented shape.
std::optional<FileInventory> checkpoint_from_report(const std::string& name, const boost::json::value& report,
                                                    std::string& error);

// The OpenVINO models among `files` (openvino_pairs.cpp): each xml's report paired with its
// .bin's, the pair's findings in `dir.pair_findings`, the xml among the weights; the names it
// took (xml and .bin) in `taken`, for the other readers to leave alone. An error when a report
// is not of the documented shape.
std::optional<std::string> read_openvino_pairs(const boost::json::object& files, const Limits& limits, ModelDirectory& dir,
                                               std::set<std::string, std::less<>>& taken);

}  // namespace tensorgate::detail
