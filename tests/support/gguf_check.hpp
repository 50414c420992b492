#pragma once
// Test-side GGUF helpers: validate bytes every way a caller may feed them, and list finding ids.
#include <string>
#include <string_view>

#include "tensorgate/limits.hpp"
#include "tensorgate/report.hpp"

namespace tgtest {

// Validates `bytes` with the size hint in one piece (the report returned), and checks with
// EXPECTs that every other way gives the same report: without the hint, byte by byte (small
// inputs), and in 7-byte pieces with the hint.
tensorgate::Report check_gguf(std::string_view bytes, const tensorgate::Limits& limits = {});

// The ids of the findings of one severity, space-separated, in order.
std::string ids_of(const tensorgate::Report& r, tensorgate::Severity severity);
inline std::string gguf_errors(const tensorgate::Report& r) { return ids_of(r, tensorgate::Severity::error); }
inline std::string gguf_warnings(const tensorgate::Report& r) { return ids_of(r, tensorgate::Severity::warning); }

// The first finding with this id, or nullptr.
const tensorgate::Finding* find_rule(const tensorgate::Report& r, std::string_view id);

}  // namespace tgtest
