#pragma once
// An OpenVINO model.xml's weights: the .bin of the same stem beside it, looked up without opening
// it (its size is all the pair check needs), a symbolic link followed only while it stays in the
// model's directory.
#include <string>

#include "tensorgate/limits.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::cli {

// What is at the .bin's place for the model at `xml_path`.
OpenVinoWeightsFacts openvino_weights_at(const std::string& xml_path);

// For the report of the file at `xml_path` (a local path, not "-"); other reports are left alone.
void check_openvino_pair(Report& report, const std::string& xml_path, const Limits& limits);

}  // namespace tensorgate::cli
