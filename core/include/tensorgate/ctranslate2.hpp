#pragma once
// CTranslate2 models (docs/ctranslate2.md, family CTR): model.bin, binary versions 1 to 6.
// The summary a file gets, and the push validator.
#include <memory>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

std::unique_ptr<Validator> make_ctranslate2_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
