#pragma once
// Legacy GGML files (docs/ggml.md, family GL): llama.cpp's files before GGUF (magics ggml,
// ggmf, ggjt) and whisper.cpp's models, read as they stream; the tensors' data is skipped.
// The summary a file gets, and the push validator.
#include <memory>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

std::unique_ptr<Validator> make_ggml_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
