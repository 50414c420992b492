#pragma once
// The audit's entry in the shared reports: JSON fields (format "conversion-audit", the table and
// the byte accounting as its summary) and the text table for people.
#include <string>

#include "tensorgate/audit.hpp"
#include "tensorgate/json_writer.hpp"

namespace tensorgate::detail {

void write_audit_fields(JsonWriter& w, const AuditReport& report);
// The headline, the table, the byte accounting and the findings, ready to print.
std::string audit_text(const std::string& gguf_path, const AuditReport& report, bool colour);

}  // namespace tensorgate::detail
