#pragma once
// Counts as the text report writes them: "8,030,261,248 parameters", "1 tensor".
#include <cstdint>
#include <string>
#include <string_view>

#include "common/number_text.hpp"

namespace tensorgate::detail {

// "8,030,261,248 parameters", "1 tensor".
inline std::string plural(std::uint64_t n, std::string_view word) {
  return commas(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

// "1234 members" without commas: the archives' and pickles' facts.
inline std::string count_of(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

}  // namespace tensorgate::detail
