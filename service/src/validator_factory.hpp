#pragma once
// The one place that turns `format=` into a validator, so adding a format (GGUF, through the
// core's detect.hpp) changes only this file.
#include <memory>
#include <string_view>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::service {

bool known_format(std::string_view format);
std::string_view format_choices();  // "auto, safetensors, gguf, ...": tensorgate/formats.def

std::unique_ptr<Validator> make_upload_validator(std::string_view format, std::string_view name,
                                                 const Limits& limits, MemoryBudget* budget);

}  // namespace tensorgate::service
