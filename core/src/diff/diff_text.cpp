// The diff for people: a headline, the totals before and after, one line per changed tensor,
// the metadata and config keys, and the gate.
#include <algorithm>
#include <array>

#include "common/printable.hpp"
#include "format.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate {
namespace {

using namespace detail::diff;
using detail::commas;

// Untrusted text on one line: control characters escaped, at most `max` bytes.
std::string shown(std::string_view s, std::uint64_t max) {
  if (s.size() > max) return detail::printable(s.substr(0, utf8_prefix(s, static_cast<std::size_t>(max)))) + "...";
  return detail::printable(s);
}

std::string cell(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string totals(const DiffReport& r) {
  const DiffSideSummary& a = r.old_side;
  const DiffSideSummary& b = r.new_side;
  const auto line = [](std::string_view what, std::uint64_t x, std::uint64_t y) {
    return "  " + cell(std::string(what), 11) + commas(x) + " -> " + commas(y) + " (" + signed_change(x, y) + ")\n";
  };
  std::string out = line("parameters", a.parameters, b.parameters) + line("tensors", a.tensors, b.tensors) +
                    line("bytes", a.bytes, b.bytes) + line("files", a.files.size(), b.files.size());
  if (r.name_map) out += "  name map   " + *r.name_map + " (safetensors names read as llama.cpp's)\n";
  return out;
}

std::string findings_text(const DiffSideSummary& s, std::uint64_t max) {
  std::string out;
  const auto add = [&](std::string_view where, const Finding& f) {
    out += "  " + shown(where, max) + ": " + std::string(rule_info(f.rule).id) + " " + std::string(severity_name(f.severity)) +
           ": " + detail::printable(f.message) + "\n";
  };
  for (const DiffInputFile& f : s.files)
    for (const Finding& finding : f.findings)
      if (finding.severity == Severity::error) add(f.path, finding);
  for (const Finding& finding : s.directory_findings)
    if (finding.severity == Severity::error) add(s.path, finding);
  return out;
}

std::string changes_text(const DiffReport& r, const DiffLimits& limits) {
  std::size_t wk = 6, wn = 6, wo = 3, ww = 3;
  std::vector<std::array<std::string, 5>> rows;
  for (const TensorChange& c : r.changes) {
    rows.push_back({kinds_text(c.kinds), shown(change_name(c), limits.shown_name_bytes),
                    c.old_tensor ? tensor_text(*c.old_tensor) : "-", c.new_tensor ? tensor_text(*c.new_tensor) : "-",
                    c.values ? values_text(*c.values) : c.note});
    constexpr std::size_t kCap = 60;  // a long name widens its column this far, no further
    wk = std::max(wk, rows.back()[0].size());
    wn = std::max(wn, std::min(kCap, rows.back()[1].size()));
    wo = std::max(wo, std::min(kCap, rows.back()[2].size()));
    ww = std::max(ww, std::min(kCap, rows.back()[3].size()));
  }
  if (rows.empty()) return "";
  std::string out = "  " + cell("change", wk) + "  " + cell("tensor", wn) + "  " + cell("old", wo) + "  " + cell("new", ww) +
                    "  values\n";
  for (const auto& row : rows) {
    std::string line = "  " + cell(row[0], wk) + "  " + cell(row[1], wn) + "  " + cell(row[2], wo) + "  " + cell(row[3], ww) +
                       "  " + row[4];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string keys_text(const DiffReport& r, const DiffLimits& limits) {
  std::string out;
  for (const KeyChange& k : r.keys) {
    const std::string before = k.old_value ? shown(*k.old_value, limits.shown_name_bytes) : "(absent)";
    const std::string after = k.new_value ? shown(*k.new_value, limits.shown_name_bytes) : "(absent)";
    out += "  " + cell(std::string(change_kind_id(k.kind)), 9) + shown(k.key, limits.shown_name_bytes) + ": " + before +
           " -> " + after + "\n";
  }
  return out;
}

}  // namespace

void write_diff_text(const DiffReport& r, const DiffLimits& limits, const JsonWriter::Sink& sink) {
  std::string out = "tensorgate diff " + shown(r.old_side.path, limits.shown_name_bytes) + " -> " +
                    shown(r.new_side.path, limits.shown_name_bytes) + ": " + headline(r) + "\n";
  if (r.invalid) {
    out += findings_text(r.old_side, limits.shown_name_bytes) + findings_text(r.new_side, limits.shown_name_bytes);
  } else if (!r.io_error) {
    out += "  changes    " + counts_text(r) + "\n" + totals(r) + changes_text(r, limits);
    if (!r.keys.empty()) out += "metadata and config\n" + keys_text(r, limits);
    for (const std::string& n : r.notes) out += "note: " + n + "\n";
  }
  out += "gate: " + gate_text(r) + "\n";
  sink(out);
}

}  // namespace tensorgate
