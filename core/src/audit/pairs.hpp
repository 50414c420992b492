#pragma once
// One source tensor against its GGUF counterpart: shape, type, values (streamed).
#include "plan.hpp"

namespace tensorgate::detail::audit {

void audit_pair(AuditContext& ctx, const PlanEntry& entry);

}  // namespace tensorgate::detail::audit
