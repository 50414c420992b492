#include "tensorgate/rules.hpp"

#include <array>

#include "common/string_pool.hpp"

namespace tensorgate {
namespace {

// Each rule's id, title and help, in that order, as one pool: a table of string_views would be
// ~1,300 relocations and 14 KB of pages copied at every start of the static PIE (string_pool.hpp).
constexpr auto kText = detail::make_string_pool([] {
  return std::to_array<std::string_view>({
#define TENSORGATE_RULE(e, id, sev, title, help) id, title, help,
#include "tensorgate/rules/all.def"
#undef TENSORGATE_RULE
  });
});

constexpr Severity kSeverities[] = {
#define TENSORGATE_RULE(e, id, sev, title, help) Severity::sev,
#include "tensorgate/rules/all.def"
#undef TENSORGATE_RULE
};
static_assert(std::size(kSeverities) == kRuleCount && kText.size() == 3 * kRuleCount);

}  // namespace

RuleInfo rule_info(Rule r) {
  const auto i = static_cast<std::size_t>(r);
  const std::string_view id = kText[3 * i];
  return {r, id, id.substr(0, id.find('.')), kSeverities[i], kText[3 * i + 1], kText[3 * i + 2]};
}

}  // namespace tensorgate
