#pragma once
// The GGUF tensors without a source counterpart (generated or unexplained) and the source
// tensors without a GGUF one (missing or unmapped).
#include "plan.hpp"

namespace tensorgate::detail::audit {

// Whether config.json's rope_scaling calls for rope_freqs.weight.
bool wants_llama3_rope(const ModelConfig& config);

void audit_generated(AuditContext& ctx, const PlanEntry& entry);
void audit_unexplained(AuditContext& ctx, const PlanEntry& entry);
// Rows and findings for what the plan left over, and for a generated tensor that is absent.
void audit_left_over(AuditContext& ctx, const Plan& plan);

}  // namespace tensorgate::detail::audit
