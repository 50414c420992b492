#pragma once
// Choosing the validator for an input: by the --input-format / format= override, or by what
// the input looks like (spec: a file is GGUF when its first four bytes are GGUF or its name
// ends in .gguf, and safetensors otherwise).
#include <memory>
#include <optional>
#include <string_view>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate {

enum class FormatChoice : unsigned char { auto_detect, safetensors, gguf, pickle, zip, npy };

// "auto", "safetensors" or "gguf"; nothing for anything else.
std::optional<FormatChoice> parse_format_choice(std::string_view text);
std::string_view format_choice_name(FormatChoice choice);

// A validator for `choice`. With auto_detect, a name ending in ".gguf" chooses GGUF at once;
// otherwise the validator buffers the first four bytes, chooses GGUF for the magic GGUF and
// safetensors for anything else, and hands everything on. An input of fewer than four bytes
// gets the safetensors verdict (the magic is not there), unless its name chose GGUF.
std::unique_ptr<Validator> make_validator(FormatChoice choice, std::string_view name,
                                          const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
