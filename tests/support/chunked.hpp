#pragma once
// Feeding a validator in chunks: every split of small inputs must give the same report.
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "tensorgate/validator.hpp"

namespace tgtest {

using ValidatorFactory = std::function<std::unique_ptr<tensorgate::Validator>()>;

// Feeds `bytes` cut at the given positions (ascending, inside the input), then finishes.
tensorgate::Report feed_split(const ValidatorFactory& make, std::string_view bytes,
                              const std::vector<std::size_t>& cuts, bool size_hint = false);

// A comparable rendering of a report: the JSON report fields, tensors included.
std::string render(const tensorgate::Report& r);

}  // namespace tgtest
