// The audit for people: a headline, the table (source name, GGUF name, transform, verdict,
// error when lossy), the byte accounting and the findings.
#include <algorithm>

#include "common/number_text.hpp"
#include "common/printable.hpp"
#include "report/audit_writers.hpp"

namespace tensorgate::detail {
namespace {


std::string signed_commas(std::uint64_t gguf, std::uint64_t source) {
  return gguf >= source ? "+" + commas(gguf - source) : "-" + commas(source - gguf);
}

std::string cell(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string error_cell(const AuditTensor& t) {
  if (t.max_abs_error) return "abs " + sci(*t.max_abs_error) + ", rel " + sci(t.max_rel_error.value_or(0));
  if (t.differing) return commas(t.differing) + " differ";
  return "";
}

std::string table(const AuditReport& r) {
  constexpr std::size_t kCap = 56;  // a long name widens its column this far, no further
  std::size_t ws = 6, wg = 4, wt = 9;
  for (const AuditTensor& t : r.tensors) {
    ws = std::max(ws, std::min(kCap, printable(t.source).size()));
    wg = std::max(wg, std::min(kCap, printable(t.gguf).size()));
    wt = std::max(wt, t.transform.size());
  }
  std::string out = "  " + cell("source", ws) + "  " + cell("gguf", wg) + "  " + cell("transform", wt) + "  " +
                    cell("verdict", 12) + "  error\n";
  for (const AuditTensor& t : r.tensors) {
    const std::string line = "  " + cell(t.source.empty() ? "-" : printable(t.source), ws) + "  " +
                             cell(t.gguf.empty() ? "-" : printable(t.gguf), wg) + "  " + cell(t.transform, wt) + "  " +
                             cell(std::string(audit_verdict_name(t.verdict)), 12) + "  " + error_cell(t);
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  return out;
}

std::string accounting(const AuditReport& r) {
  const AuditBytes& b = r.bytes;
  std::uint64_t src_tensors = 0, gguf_tensors = 0;
  for (const AuditTensor& t : r.tensors) {
    src_tensors += !t.source.empty();
    gguf_tensors += !t.gguf_type.empty();
  }
  std::string out = "byte accounting (tensor data)\n";
  out += "  source  " + commas(b.source_tensor_bytes) + " bytes, " + commas(src_tensors) + " tensors in " +
         commas(b.source_files) + " file" + (b.source_files == 1 ? "" : "s") + " of " + commas(b.source_file_bytes) +
         " bytes (headers " + commas(b.source_headers) + ")\n";
  out += "  GGUF    " + commas(b.gguf_tensor_bytes) + " bytes, " + commas(gguf_tensors) + " tensors in a file of " +
         commas(b.gguf_file_bytes) + " bytes (metadata " + commas(b.gguf_metadata_bytes) + ", padding " +
         commas(b.gguf_padding) + ")\n";
  out += "  difference " + signed_commas(b.gguf_tensor_bytes, b.source_tensor_bytes) + " bytes:\n";
  std::size_t w = 0;
  for (const AuditBytesLine& l : b.lines) w = std::max(w, printable(l.what).size());
  for (const AuditBytesLine& l : b.lines)
    out += "    " + cell(printable(l.what), w) + "  " + cell(commas(l.tensors) + (l.tensors == 1 ? " tensor" : " tensors"), 14) +
           "  " + signed_commas(l.gguf_bytes, l.source_bytes) + "\n";
  return out;
}

std::string findings_text(const AuditReport& r) {
  std::string out;
  for (const Finding& f : r.findings) {
    out += "  " + cell(std::string(severity_name(f.severity)), 8) + cell(std::string(rule_info(f.rule).id), 22);
    if (f.tensor) out += "tensor " + quoted(*f.tensor, 80) + ": ";
    out += printable(f.message) + "\n";
  }
  if (r.findings_dropped) out += "  ... and " + commas(r.findings_dropped) + " more findings\n";
  return out;
}

}  // namespace

std::string audit_text(const std::string& gguf_path, const AuditReport& r, bool colour) {
  const std::string on = colour ? (r.faithful ? "\x1b[32m" : "\x1b[31m") : "", off = colour ? "\x1b[0m" : "";
  std::string out = printable(gguf_path) + ": " + on + (r.faithful ? "FAITHFUL" : "NOT FAITHFUL") + off +
                    " conversion of " + printable(r.source_path);
  if (!r.architecture.empty()) out += " (" + r.architecture + ")";
  const AuditCounts& c = r.counts;
  out += ": " + commas(c.exact) + " exact, " + commas(c.lossy) + " lossy within threshold, " + commas(c.not_compared) +
         " not compared, " + commas(c.generated) + " generated, " + commas(c.failed) + " failed\n";
  if (!r.tensors.empty()) out += table(r) + accounting(r);
  if (!r.findings.empty()) out += "findings\n" + findings_text(r);
  return out;
}

}  // namespace tensorgate::detail
