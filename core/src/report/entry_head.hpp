#pragma once
// The first fields of a JSON report entry that is judged as a whole rather than read as one
// file's format: a model directory, a conversion audit, a chat template file. They have no
// canonical form and are never cut short by a limit, so "canonical" and "aborted" are null; the
// caller writes "summary" and "error" after these (docs/report.schema.json, a file entry).
#include <cstdint>
#include <span>
#include <string_view>

#include "tensorgate/finding.hpp"
#include "tensorgate/json_writer.hpp"

namespace tensorgate::detail {

// "format", "valid", "canonical" (null), "bytes", "findings", "findings_dropped", "aborted" (null).
void write_entry_head(JsonWriter& w, std::string_view format, bool valid, std::uint64_t bytes,
                      std::span<const Finding> findings, std::uint64_t findings_dropped);

}  // namespace tensorgate::detail
