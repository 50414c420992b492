#include "validator_factory.hpp"

#include "tensorgate/detect.hpp"

namespace tensorgate::service {

bool known_format(std::string_view format) { return parse_format_choice(format).has_value(); }

std::string_view format_choices() {
  static const std::string names = format_choice_names(", ");
  return names;
}

// `auto` detects the format from the first bytes (or a name ending in .gguf).
std::unique_ptr<Validator> make_upload_validator(std::string_view format, std::string_view name,
                                                 const Limits& limits, MemoryBudget* budget) {
  return make_validator(parse_format_choice(format).value_or(FormatChoice::auto_detect), name,
                        limits, budget);
}

}  // namespace tensorgate::service
