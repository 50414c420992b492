#pragma once
// The rule catalogue: one id per check, written FAMILY.detail (docs/rules.md, generated from rules/*.def).
// Like simdjson's error codes, `Rule` is one enum with a parallel table of static descriptions;
// a Finding carries the enum, and everything a report prints comes from the table. Each family
// keeps its entries in its own .def file under rules/.
#include <cstdint>
#include <span>
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

const RuleInfo& rule_info(Rule r);
std::span<const RuleInfo> all_rules();
inline std::string_view rule_help(Rule r) { return rule_info(r).help; }

}  // namespace tensorgate
