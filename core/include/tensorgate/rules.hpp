#pragma once
// The rule catalogue: one id per check, written FAMILY.detail (docs/rules.md, generated from rules/*.def).
// Like simdjson's error codes, `Rule` is one enum with a parallel table of static descriptions;
// a Finding carries the enum, and everything a report prints comes from the table. Each family
// keeps its entries in its own .def file under rules/.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tensorgate/severity.hpp"

namespace tensorgate {

enum class Rule : std::uint16_t {
#define TENSORGATE_RULE(e, id, sev, title, help) e,
#include "tensorgate/rules/all.def"
#undef TENSORGATE_RULE
};

struct RuleInfo {
  Rule rule;
  std::string_view id;      // "ST4.dtype"
  std::string_view family;  // "ST4": what tests and gates key on
  Severity severity;        // the default severity
  std::string_view title;   // one line, no trailing period
  std::string_view help;    // the longer explanation (SARIF fullDescription, /v1/rules)
};

// The catalogue keeps no addresses (core/src/common/rules.cpp says why), so a RuleInfo is made
// when asked for; its string_views point into the catalogue and stay valid for the program's life.
RuleInfo rule_info(Rule r);
inline std::string_view rule_help(Rule r) { return rule_info(r).help; }

constexpr std::size_t kRuleCount = 0
#define TENSORGATE_RULE(e, id, sev, title, help) +1
#include "tensorgate/rules/all.def"
#undef TENSORGATE_RULE
    ;

// Every rule in catalogue order: `for (const RuleInfo& r : all_rules())`.
class RuleRange {
 public:
  class iterator {
   public:
    explicit iterator(std::size_t i) : i_(i) {}
    RuleInfo operator*() const { return rule_info(static_cast<Rule>(i_)); }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator&) const = default;

   private:
    std::size_t i_;
  };
  iterator begin() const { return iterator(0); }
  iterator end() const { return iterator(kRuleCount); }
  static constexpr std::size_t size() { return kRuleCount; }
};
inline RuleRange all_rules() { return {}; }

}  // namespace tensorgate
