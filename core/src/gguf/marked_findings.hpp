#pragma once
// Findings with a cap (like FindingList) that can be rolled back to a mark. The GGUF validator
// needs the rollback to keep its reports independent of the size hint: with the file size known
// it refutes an announced count or length as soon as it reads it; without, it learns the same at
// the end of the input, and must then drop what it established after that point (spec: "a
// count is checked against the bytes that remain before anything is allocated").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"

namespace tensorgate::detail::gguf {

class MarkedFindings {
 public:
  struct Mark {
    std::size_t size = 0;
    std::uint64_t dropped = 0;
    bool errors = false;
  };

  explicit MarkedFindings(std::uint32_t cap) : cap_(cap) {}

  void add(Rule rule, std::string message, std::optional<std::uint64_t> offset = std::nullopt,
           std::optional<std::string_view> tensor = std::nullopt) {
    const Severity severity = rule_info(rule).severity;
    if (severity == Severity::error) errors_ = true;
    if (items_.size() >= cap_) {
      ++dropped_;
      return;
    }
    items_.push_back(Finding{rule, severity, std::move(message), offset,
                             tensor ? std::optional<std::string>(std::string(*tensor)) : std::nullopt});
  }

  Mark mark() const { return {items_.size(), dropped_, errors_}; }
  void rollback(const Mark& m) {
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(m.size), items_.end());
    dropped_ = m.dropped;
    errors_ = m.errors;
  }

  bool has_errors() const { return errors_; }
  const std::vector<Finding>& items() const { return items_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  std::uint32_t cap_;
  std::vector<Finding> items_;
  std::uint64_t dropped_ = 0;
  bool errors_ = false;
};

}  // namespace tensorgate::detail::gguf
