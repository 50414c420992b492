#pragma once
// Shared by the fuzz targets: a comparable rendering of a report, and an invariant check that
// names what broke (the campaign script keeps that line in the regression's note).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tensorgate/report.hpp"

namespace tgfuzz {

// The report as JSON (tensor inventory included): equal renderings mean equal reports.
std::string render(const tensorgate::Report& report);

// Aborts with "INVARIANT <name>: <detail>" on stderr when `ok` is false.
void require(bool ok, std::string_view name, std::string_view detail = {});

// Invariants every report must satisfy, whatever the input. A snapshot (input not finished)
// has no canonical flag yet.
void check_report_invariants(const tensorgate::Report& report, bool finished = true);

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tgfuzz
