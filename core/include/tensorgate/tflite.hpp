#pragma once
// TFLite flatbuffers (docs/tflite.md, family TFL): every offset, table, vector and string
// verified inside the file, tensors against their buffers, custom and Flex ops judged.
// The summary a file gets, and the push validator.
#include <memory>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

std::unique_ptr<Validator> make_tflite_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
