#pragma once
#include <string>
#include <vector>

namespace tensorgate::cli {

// Exit statuses of `tensorgate check` (README, "Exit status").
enum ExitStatus : int { kAllValid = 0, kInvalid = 1, kUsageOrIo = 2, kNothingFound = 3 };

int run_check(const std::vector<std::string>& args);

}  // namespace tensorgate::cli
