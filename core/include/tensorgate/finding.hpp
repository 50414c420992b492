#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "tensorgate/rules.hpp"

namespace tensorgate {

// One established fact about a file. `offset` is the byte position in the file where it applies
// (for header findings: the token at or just before the problem), `tensor` the tensor's name.
struct Finding {
  Rule rule;
  Severity severity;
  std::string message;
  std::optional<std::uint64_t> offset;
  std::optional<std::string> tensor;

  friend bool operator==(const Finding&, const Finding&) = default;
};

}  // namespace tensorgate
