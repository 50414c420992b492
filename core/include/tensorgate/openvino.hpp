#pragma once
// OpenVINO IR (docs/openvino.md, family OV): model.xml read with expat, entities refused, and
// its Const layers checked against the weights file beside it.
// The summary a file gets, and the push validator.
#include <memory>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

std::unique_ptr<Validator> make_openvino_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
