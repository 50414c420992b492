// The diff as JSON: schema tensorgate.diff/1, described by docs/diff.schema.json.
#include "common/summary_steps.hpp"
#include "tensorgate/diff.hpp"

namespace tensorgate {
namespace {

void optional_string(JsonWriter& w, std::string_view key, const std::optional<std::string>& v) {
  w.key(key);
  if (v) w.string(*v); else w.null();
}

void optional_number(JsonWriter& w, std::string_view key, const std::optional<double>& v) {
  w.key(key);
  if (v) w.number(*v); else w.null();
}

void write_kinds(JsonWriter& w, ChangeSet kinds) {
  w.begin_array();
  for (const ChangeKindInfo& k : change_kinds())
    if (kinds.has(k.kind)) w.string(k.id);
  w.end_array();
}

void write_side(JsonWriter& w, const DiffSideSummary& s) {
  w.begin_object();
  w.field("path", s.path);
  w.field("valid", s.valid);
  w.key("files");
  w.begin_array();
  for (const DiffInputFile& f : s.files) {
    w.begin_object();
    w.field("path", f.path);
    w.field("format", f.format);
    w.field("valid", f.valid);
    w.field("bytes", f.bytes);
    w.key("findings");
    w.begin_array();
    for (const Finding& finding : f.findings) write_finding(w, finding);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("directory_findings");
  w.begin_array();
  for (const Finding& finding : s.directory_findings) write_finding(w, finding);
  w.end_array();
  w.field("tensors", s.tensors);
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  detail::write_type_totals(w, "dtypes", s.by_dtype, [](const DiffDtypeTotal& d) -> std::string_view { return d.dtype; });
  w.end_object();
}

void write_tensor(JsonWriter& w, const DiffSideSummary& side, const std::optional<DiffTensor>& t) {
  if (!t) return w.null();
  w.begin_object();
  w.field("name", t->name);
  w.field("dtype", t->dtype);
  w.key("shape");
  w.begin_array();
  for (const std::uint64_t d : t->shape) w.number(d);
  w.end_array();
  w.field("parameters", t->parameters);
  w.field("bytes", t->bytes);
  w.field("file", t->file < side.files.size() ? side.files[t->file].path : std::string());
  w.end_object();
}

void write_values(JsonWriter& w, const std::optional<ValueDiff>& v) {
  if (!v) return w.null();
  w.begin_object();
  w.field("compared", v->compared);
  optional_string(w, "reason", v->compared ? std::nullopt : std::optional(v->reason));
  optional_string(w, "scope", v->compared ? std::optional(v->scope) : std::nullopt);
  w.field("identical", v->identical);
  w.field("elements", v->elements);
  w.field("changed", v->changed);
  w.key("changed_fraction");
  if (v->compared && v->elements) w.number(static_cast<double>(v->changed) / static_cast<double>(v->elements));
  else w.null();
  w.field("nonfinite", v->nonfinite);
  optional_number(w, "max_abs_diff", v->max_abs);
  optional_number(w, "max_rel_diff", v->max_rel);
  w.end_object();
}

void write_change(JsonWriter& w, const DiffReport& r, const TensorChange& c) {
  w.begin_object();
  w.key("kinds");
  write_kinds(w, c.kinds);
  w.key("old");
  write_tensor(w, r.old_side, c.old_tensor);
  w.key("new");
  write_tensor(w, r.new_side, c.new_tensor);
  optional_string(w, "matched_by", c.matched_by ? std::optional(std::string(matched_by_name(*c.matched_by))) : std::nullopt);
  w.key("values");
  write_values(w, c.values);
  optional_string(w, "note", c.note.empty() ? std::nullopt : std::optional(c.note));
  w.end_object();
}

void write_summary(JsonWriter& w, const DiffReport& r) {
  w.begin_object();
  w.field("tensors_changed", std::uint64_t{r.changes.size()});
  w.field("tensors_unchanged", std::uint64_t{r.unchanged.size()});
  w.key("kinds");
  w.begin_object();
  for (const ChangeKindInfo& k : change_kinds()) w.field(k.id, r.counts[static_cast<std::size_t>(k.kind)]);
  w.end_object();
  w.end_object();
}

}  // namespace

void write_diff_json(const DiffReport& r, const JsonWriter::Sink& sink) {
  JsonWriter w(sink);
  w.begin_object();
  w.field("schema", kDiffSchema);
  w.key("tool");
  w.begin_object();
  w.field("name", "tensorgate");
  w.field("version", tool_version());
  w.end_object();
  w.key("old");
  write_side(w, r.old_side);
  w.key("new");
  write_side(w, r.new_side);
  w.field("values_compared", r.values_compared);
  optional_string(w, "name_map", r.name_map);
  w.key("summary");
  write_summary(w, r);
  w.key("changes");
  w.begin_array();
  for (const TensorChange& c : r.changes) write_change(w, r, c);
  w.end_array();
  w.key("unchanged");
  w.begin_array();
  for (const std::string& name : r.unchanged) w.string(name);
  w.end_array();
  w.key("keys");
  w.begin_array();
  for (const KeyChange& k : r.keys) {
    w.begin_object();
    w.field("kind", change_kind_id(k.kind));
    w.field("key", k.key);
    optional_string(w, "old", k.old_value);
    optional_string(w, "new", k.new_value);
    w.end_object();
  }
  w.end_array();
  w.key("gate");
  w.begin_object();
  w.key("fail_on");
  write_kinds(w, r.fail_on);
  w.key("failed");
  write_kinds(w, r.failed);
  w.field("passed", !r.gate_failed && !r.io_error);
  w.end_object();
  w.key("notes");
  w.begin_array();
  for (const std::string& n : r.notes) w.string(n);
  w.end_array();
  w.field("bytes_read", r.bytes_read);
  optional_string(w, "invalid", r.invalid);
  optional_string(w, "error", r.io_error);
  w.end_object();
  w.flush();
}

}  // namespace tensorgate
