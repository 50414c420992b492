#pragma once
// The first fields of a JSON report entry that is not one file's format read to its verdict: a
// model directory, a conversion audit, a chat template file (judged as a whole), and a file that
// could not be read (no format: null). None has a canonical form or is cut short by a limit, so
// "canonical" and "aborted" are null; the caller writes "summary" and "error" after these
// (docs/report.schema.json, a file entry). A file's own entry pauses between its findings
// (json_report.cpp, report_field_steps) and writes its head itself.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "tensorgate/finding.hpp"
#include "tensorgate/json_writer.hpp"

namespace tensorgate::detail {

// "format" (null without one), "valid", "canonical" (null), "bytes", "findings",
// "findings_dropped", "aborted" (null).
void write_entry_head(JsonWriter& w, std::optional<std::string_view> format, bool valid, std::uint64_t bytes,
                      std::span<const Finding> findings, std::uint64_t findings_dropped);

}  // namespace tensorgate::detail
