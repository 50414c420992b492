#pragma once
// The one findings collector of the core. Every producer (the safetensors and GGUF validators,
// the model-directory checks, the conversion audit) adds its findings here, with the one cap
// from Limits::max_findings: past the cap a finding is only counted (Report::findings_dropped),
// and an error past the cap still makes the verdict invalid.
//
// A mark and a rollback undo what was added since the mark. The GGUF validator needs them to
// keep its reports independent of the size hint: with the file size known it refutes an
// announced count or length as soon as it reads it; without, it learns the same at the end of
// the input and must then drop what it established after that point.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail {

class FindingList {
 public:
  struct Mark {
    std::size_t size = 0;
    std::uint64_t dropped = 0;
    bool errors = false;
    std::uint64_t error_count = 0;
  };

  explicit FindingList(std::uint32_t cap) : cap_(cap) {}

  void add(Rule rule, std::string message, std::optional<std::uint64_t> offset = std::nullopt,
           std::optional<std::string_view> tensor = std::nullopt) {
    add(rule, rule_info(rule).severity, std::move(message), offset, tensor);
  }
  void add(Rule rule, Severity severity, std::string message,
           std::optional<std::uint64_t> offset = std::nullopt,
           std::optional<std::string_view> tensor = std::nullopt) {
    if (severity == Severity::error) {
      has_errors_ = true;
      ++error_count_;
    }
    if (items_.size() >= cap_) {
      ++dropped_;
      return;
    }
    items_.push_back(Finding{rule, severity, std::move(message), offset,
                             tensor ? std::optional<std::string>(std::string(
                                          tensor->substr(0, utf8_prefix(*tensor, kMaxFindingTensorBytes))))
                                    : std::nullopt});
  }
  void add(Finding f) {
    if (f.tensor) f.tensor->resize(utf8_prefix(*f.tensor, kMaxFindingTensorBytes));
    if (f.severity == Severity::error) {
      has_errors_ = true;
      ++error_count_;
    }
    if (items_.size() >= cap_) {
      ++dropped_;
      return;
    }
    items_.push_back(std::move(f));
  }

  // Findings another list dropped, merged into this one (a file's report into its directory's);
  // `errors`: at least one of them was an error (counted as one).
  void add_dropped(std::uint64_t n, bool errors) {
    dropped_ += n;
    has_errors_ = has_errors_ || errors;
    if (errors) ++error_count_;
  }

  Mark mark() const { return {items_.size(), dropped_, has_errors_, error_count_}; }
  void rollback(const Mark& m) {
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(m.size), items_.end());
    dropped_ = m.dropped;
    has_errors_ = m.errors;
    error_count_ = m.error_count;
  }

  bool has_errors() const { return has_errors_; }
  // Errors added so far, listed or not: a producer that shares the list (the zip walker's
  // pickles) tells its own errors by the count before and after.
  std::uint64_t error_count() const { return error_count_; }
  const std::vector<Finding>& items() const { return items_; }
  std::vector<Finding> take() { return std::move(items_); }
  std::uint64_t dropped() const { return dropped_; }

 private:
  std::uint32_t cap_;
  std::vector<Finding> items_;
  std::uint64_t dropped_ = 0;
  bool has_errors_ = false;
  std::uint64_t error_count_ = 0;
};

}  // namespace tensorgate::detail
