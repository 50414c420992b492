// The diff as a pull-request comment (GitHub-flavoured markdown): the headline and totals, a
// table of the changed tensors, the metadata and config keys, collapsed lists of the unchanged
// tensors, and the gate. At most Limits::diff.markdown_max_bytes: rows past it are counted and
// the reader is sent to the JSON report.
//
// Names and values come from the files, so they are written only inside code spans: no
// markdown, HTML, link or @mention in them is interpreted. The fence is longer than any run of
// backticks in the text, '|' is escaped for the table, and control characters are shown as
// escapes.
#include <algorithm>

#include "common/printable.hpp"
#include "format.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate {
namespace {

using namespace detail::diff;
using detail::commas;

std::string code(std::string_view raw, std::uint64_t max) {
  std::string s = raw.size() > max ? detail::printable(raw.substr(0, utf8_prefix(raw, static_cast<std::size_t>(max)))) + "..."
                                   : detail::printable(raw);
  std::string escaped;
  std::size_t run = 0, longest = 0;
  for (const char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = escaped.empty() || escaped.front() == '`' || escaped.back() == '`' || escaped.front() == ' ';
  return fence + (pad ? " " : "") + escaped + (pad ? " " : "") + fence;
}

// Appends whole lines while they fit the budget; counts what did not.
class Budget {
 public:
  explicit Budget(std::uint64_t max) : max_(max) {}
  bool add(const std::string& line) {
    if (out_.size() + line.size() + 1 > max_) return ++left_out_, false;
    out_ += line + "\n";
    return true;
  }
  void force(const std::string& line) { out_ += line + "\n"; }  // closing tags, the gate
  std::uint64_t left_out() const { return left_out_; }
  std::string& text() { return out_; }

 private:
  std::uint64_t max_;
  std::string out_;
  std::uint64_t left_out_ = 0;
};

std::string totals_line(const DiffReport& r) {
  const auto& a = r.old_side;
  const auto& b = r.new_side;
  std::string s = "Parameters " + commas(a.parameters) + " → " + commas(b.parameters) + " (" +
                  signed_change(a.parameters, b.parameters) + "), tensors " + commas(a.tensors) + " → " + commas(b.tensors) +
                  ", files " + commas(a.files.size()) + " → " + commas(b.files.size()) + ".";
  if (r.name_map) s += " Names related through the " + *r.name_map + " name map (safetensors names as llama.cpp's).";
  return s;
}

void changes_table(const DiffReport& r, const DiffLimits& limits, Budget& md) {
  if (r.changes.empty()) return;
  md.force("");
  md.force("| change | tensor | old | new | values |");
  md.force("|---|---|---|---|---|");
  for (const TensorChange& c : r.changes) {
    const std::string values = c.values ? values_text(*c.values) : c.note;
    md.add("| " + kinds_text(c.kinds) + " | " + code(change_name(c), limits.shown_name_bytes) + " | " +
           (c.old_tensor ? tensor_text(*c.old_tensor) : "—") + " | " + (c.new_tensor ? tensor_text(*c.new_tensor) : "—") +
           " | " + values + " |");
  }
}

void keys_table(const DiffReport& r, const DiffLimits& limits, Budget& md) {
  if (r.keys.empty()) return;
  md.force("");
  md.force("<details><summary>" + commas(r.keys.size()) + " metadata and config " + (r.keys.size() == 1 ? "change" : "changes") +
           "</summary>");
  md.force("");
  md.force("| kind | key | old | new |");
  md.force("|---|---|---|---|");
  for (const KeyChange& k : r.keys)
    md.add("| " + std::string(change_kind_id(k.kind)) + " | " + code(k.key, limits.shown_name_bytes) + " | " +
           (k.old_value ? code(*k.old_value, limits.shown_name_bytes) : "—") + " | " +
           (k.new_value ? code(*k.new_value, limits.shown_name_bytes) : "—") + " |");
  md.force("");
  md.force("</details>");
}

void unchanged_list(const DiffReport& r, const DiffLimits& limits, Budget& md) {
  if (r.unchanged.empty()) return;
  md.force("");
  md.force("<details><summary>" + commas(r.unchanged.size()) + " unchanged " +
           (r.unchanged.size() == 1 ? "tensor" : "tensors") +
           (r.values_compared ? "" : " (same dtype and shape; values not compared)") + "</summary>");
  md.force("");
  for (const std::string& name : r.unchanged) md.add("- " + code(name, limits.shown_name_bytes));
  md.force("");
  md.force("</details>");
}

}  // namespace

void write_diff_markdown(const DiffReport& r, const DiffLimits& limits, const JsonWriter::Sink& sink) {
  // Room for what is always written: the closing tags and the gate.
  constexpr std::uint64_t kReserve = 600;
  Budget md(limits.markdown_max_bytes > kReserve ? limits.markdown_max_bytes - kReserve : 0);
  md.force("### tensorgate diff");
  md.force("");
  md.force(code(r.old_side.path, limits.shown_name_bytes) + " → " + code(r.new_side.path, limits.shown_name_bytes));
  md.force("");
  if (r.invalid || r.io_error) {
    md.force(std::string(r.invalid ? "**Not compared:** " : "**No result:** ") +
             code(r.invalid ? *r.invalid : *r.io_error, limits.shown_name_bytes * 2));
    for (const DiffSideSummary* side : {&r.old_side, &r.new_side})
      for (const DiffInputFile& f : side->files)
        for (const Finding& finding : f.findings)
          if (finding.severity == Severity::error)
            md.add("- " + code(f.path, limits.shown_name_bytes) + ": " + std::string(rule_info(finding.rule).id) + " " +
                   code(finding.message, limits.shown_name_bytes * 2));
  } else {
    md.force("**" + headline(r) + "**");
    md.force("");
    md.force("Changes: " + counts_text(r) + ". " + totals_line(r));
    changes_table(r, limits, md);
    keys_table(r, limits, md);
    unchanged_list(r, limits, md);
    for (const std::string& n : r.notes) md.add("\n> " + n);
  }
  if (md.left_out())
    md.force("\n" + commas(md.left_out()) + " more rows are not shown here (this summary stays under " +
             commas(limits.markdown_max_bytes) + " bytes): `tensorgate diff --format json` lists them all.");
  md.force("");
  md.force("Gate: **" + gate_text(r) + "**");
  sink(md.text());
}

}  // namespace tensorgate
