#include "tensorgate/report_writers.hpp"
#include "report/audit_writers.hpp"
#include "report/entry_head.hpp"

namespace tensorgate::detail {
namespace {

void optional_number(JsonWriter& w, std::string_view key, const std::optional<double>& v) {
  w.key(key);
  if (v) w.number(*v); else w.null();
}

void optional_string(JsonWriter& w, std::string_view key, const std::string& v) {
  w.key(key);
  if (v.empty()) w.null(); else w.string(v);
}

void write_tensor(JsonWriter& w, const AuditTensor& t) {
  w.begin_object();
  optional_string(w, "source", t.source);
  optional_string(w, "gguf", t.gguf);
  optional_string(w, "source_dtype", t.source_dtype);
  optional_string(w, "gguf_type", t.gguf_type);
  w.key("shape");
  w.begin_array();
  for (const std::uint64_t d : t.shape) w.number(d);
  w.end_array();
  w.field("transform", t.transform);
  w.field("verdict", audit_verdict_name(t.verdict));
  optional_number(w, "max_abs_error", t.max_abs_error);
  optional_number(w, "max_rel_error", t.max_rel_error);
  w.field("differing", t.differing);
  w.field("source_bytes", t.source_bytes);
  w.field("gguf_bytes", t.gguf_bytes);
  w.end_object();
}

// A signed difference of two sizes, exact for any pair of uint64 values that fits an int64.
void write_difference(JsonWriter& w, std::uint64_t gguf, std::uint64_t source) {
  if (gguf >= source) w.number(gguf - source);
  else w.number(-static_cast<std::int64_t>(source - gguf));
}

void write_bytes(JsonWriter& w, const AuditBytes& b) {
  w.begin_object();
  w.field("source_files", b.source_files);
  w.field("source_file_bytes", b.source_file_bytes);
  w.field("source_headers", b.source_headers);
  w.field("source_tensor_bytes", b.source_tensor_bytes);
  w.field("gguf_file_bytes", b.gguf_file_bytes);
  w.field("gguf_metadata_bytes", b.gguf_metadata_bytes);
  w.field("gguf_tensor_bytes", b.gguf_tensor_bytes);
  w.field("gguf_padding", b.gguf_padding);
  w.key("difference");
  write_difference(w, b.gguf_tensor_bytes, b.source_tensor_bytes);
  w.key("explained_by");
  w.begin_array();
  for (const AuditBytesLine& l : b.lines) {
    w.begin_object();
    w.field("what", l.what);
    w.field("tensors", l.tensors);
    w.field("source_bytes", l.source_bytes);
    w.field("gguf_bytes", l.gguf_bytes);
    w.key("difference");
    write_difference(w, l.gguf_bytes, l.source_bytes);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_summary(JsonWriter& w, const AuditReport& r) {
  w.begin_object();
  w.field("source", r.source_path);
  w.key("architecture");
  if (r.architecture.empty()) w.null(); else w.string(r.architecture);
  w.field("faithful", r.faithful);
  w.key("counts");
  w.begin_object();
  w.field("exact", r.counts.exact);
  w.field("lossy", r.counts.lossy);
  w.field("not_compared", r.counts.not_compared);
  w.field("generated", r.counts.generated);
  w.field("failed", r.counts.failed);
  w.end_object();
  w.key("tensors");
  w.begin_array();
  for (const AuditTensor& t : r.tensors) write_tensor(w, t);
  w.end_array();
  w.key("byte_accounting");
  write_bytes(w, r.bytes);
  w.field("bytes_read", r.bytes_read);
  w.end_object();
}

}  // namespace

void write_audit_fields(JsonWriter& w, const AuditReport& r) {
  write_entry_head(w, "conversion-audit", r.faithful, r.bytes.gguf_file_bytes, r.findings, r.findings_dropped);
  w.key("summary");
  write_summary(w, r);
  w.key("error");
  w.null();
}

}  // namespace tensorgate::detail
