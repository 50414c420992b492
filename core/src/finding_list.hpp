#pragma once
// Collects findings up to the configured cap; past it, findings are counted, and an error past
// the cap still makes the file invalid.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"

namespace tensorgate::detail {

class FindingList {
 public:
  explicit FindingList(std::uint32_t cap) : cap_(cap) {}

  void add(Rule rule, std::string message, std::optional<std::uint64_t> offset = std::nullopt,
           std::optional<std::string_view> tensor = std::nullopt) {
    add(rule, rule_info(rule).severity, std::move(message), offset, tensor);
  }
  void add(Rule rule, Severity severity, std::string message,
           std::optional<std::uint64_t> offset = std::nullopt,
           std::optional<std::string_view> tensor = std::nullopt) {
    if (severity == Severity::error) has_errors_ = true;
    if (items_.size() >= cap_) {
      ++dropped_;
      return;
    }
    items_.push_back(Finding{rule, severity, std::move(message), offset,
                             tensor ? std::optional<std::string>(std::string(*tensor))
                                    : std::nullopt});
  }

  bool has_errors() const { return has_errors_; }
  const std::vector<Finding>& items() const { return items_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  std::uint32_t cap_;
  std::vector<Finding> items_;
  std::uint64_t dropped_ = 0;
  bool has_errors_ = false;
};

}  // namespace tensorgate::detail
