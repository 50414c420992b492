#include "accounting.hpp"

namespace tensorgate::detail::audit {
namespace {

std::string line_of(const AuditTensor& t) {
  switch (t.verdict) {
    case AuditVerdict::missing: return t.source.empty() ? std::string() : "missing from the GGUF";
    case AuditVerdict::unmapped: return "not converted (no GGUF name)";
    case AuditVerdict::unexplained: return "unexplained";
    default: break;
  }
  if (t.source.empty()) return "generated " + t.gguf;
  if (t.source_dtype == t.gguf_type) return t.source_dtype + " kept";
  return t.source_dtype + " -> " + t.gguf_type;
}

}  // namespace

void account_bytes(AuditContext& ctx) {
  AuditBytes& b = ctx.report.bytes;
  for (const AuditSource& s : ctx.in.sources) {
    ++b.source_files;
    b.source_file_bytes += s.file_size;
    const SafetensorsSummary& st = *s.report->summary.get<SafetensorsSummary>();  // checked by the audit's inputs
    b.source_headers += 8 + st.header_length;
    b.source_tensor_bytes += st.bytes;
  }
  const GgufSummary& g = *ctx.gguf;
  b.gguf_file_bytes = ctx.in.gguf_file_size;
  b.gguf_metadata_bytes = g.data_offset;
  b.gguf_tensor_bytes = g.bytes;
  b.gguf_padding = g.data_length > g.bytes ? g.data_length - g.bytes : 0;
  for (const AuditTensor& t : ctx.report.tensors) {
    const std::string what = line_of(t);
    if (what.empty()) continue;
    AuditBytesLine* line = nullptr;
    for (AuditBytesLine& l : b.lines)
      if (l.what == what) line = &l;
    if (!line) line = &b.lines.emplace_back(AuditBytesLine{what, 0, 0, 0});
    ++line->tensors;
    line->source_bytes += t.source_bytes;
    line->gguf_bytes += t.gguf_bytes;
  }
}

void count_verdicts(AuditReport& r) {
  for (const AuditTensor& t : r.tensors) {
    switch (t.verdict) {
      case AuditVerdict::exact: ++r.counts.exact; break;
      case AuditVerdict::within: ++r.counts.lossy; break;
      case AuditVerdict::generated: ++r.counts.generated; break;
      case AuditVerdict::not_compared:
      case AuditVerdict::unmapped: ++r.counts.not_compared; break;
      default: ++r.counts.failed; break;
    }
  }
}

}  // namespace tensorgate::detail::audit
