#pragma once
// Severity of a finding: `error` makes a file invalid, `warning` leaves it valid but a gate may
// refuse it, `info` is a fact worth showing (docs/rules.md).
#include <string_view>

namespace tensorgate {

enum class Severity : unsigned char { error, warning, info };

constexpr std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

}  // namespace tensorgate
