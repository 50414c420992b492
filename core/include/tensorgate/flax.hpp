#pragma once
// Flax msgpack checkpoints (docs/flax.md, family FX): flax.serialization.to_bytes output, read
// by a bounded push msgpack reader with an explicit stack; array buffers are skipped.
// The summary a file gets, and the push validator.
#include <memory>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

std::unique_ptr<Validator> make_flax_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
