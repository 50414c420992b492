#pragma once
// The byte accounting: tensor data on both sides, and one line per kind of change that
// explains their difference (kept tensors, widened norms, generated tensors, ...). Every source
// tensor and every GGUF tensor is in exactly one row of the table, so the lines add up to the
// difference by construction; the counts say how each row ended.
#include "context.hpp"

namespace tensorgate::detail::audit {

void account_bytes(AuditContext& ctx);
void count_verdicts(AuditReport& report);

}  // namespace tensorgate::detail::audit
