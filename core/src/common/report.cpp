#include "tensorgate/report.hpp"

namespace tensorgate {

bool Report::has(std::string_view family_or_id) const {
  for (const Finding& f : findings) {
    const RuleInfo& info = rule_info(f.rule);
    if (info.id == family_or_id || info.family == family_or_id) return true;
  }
  return false;
}

}  // namespace tensorgate
