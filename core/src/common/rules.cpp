#include "tensorgate/rules.hpp"

#include <iterator>

namespace tensorgate {
namespace {

constexpr std::string_view family_of(std::string_view id) { return id.substr(0, id.find('.')); }

constexpr RuleInfo kRules[] = {
#define TENSORGATE_RULE(e, id, sev, title, help) {Rule::e, id, family_of(id), Severity::sev, title, help},
#include "tensorgate/rules/all.def"
#undef TENSORGATE_RULE
};

constexpr bool indexed_by_rule() {
  for (std::size_t i = 0; i < std::size(kRules); ++i)
    if (static_cast<std::size_t>(kRules[i].rule) != i) return false;
  return true;
}
static_assert(indexed_by_rule(), "kRules must be indexed by Rule");

}  // namespace

const RuleInfo& rule_info(Rule r) { return kRules[static_cast<std::size_t>(r)]; }

std::span<const RuleInfo> all_rules() { return kRules; }

}  // namespace tensorgate
