#include "report/directory_json.hpp"

#include "tensorgate/report_writers.hpp"
#include "report/entry_head.hpp"

namespace tensorgate::detail {
namespace {

void write_split_sets(JsonWriter& w, const std::vector<SplitSetSummary>& sets) {
  w.begin_array();
  for (const SplitSetSummary& s : sets) {
    w.begin_object();
    w.field("prefix", s.prefix);
    w.field("shard_count", s.shard_count);
    w.key("files");
    w.begin_array();
    for (const auto& f : s.files) w.string(f);
    w.end_array();
    w.key("architecture");
    if (s.architecture) w.string(*s.architecture); else w.null();
    w.key("layers");
    if (s.layers) w.number(*s.layers); else w.null();
    w.key("parameter_count");
    w.begin_object();
    for (const auto& [type, count] : s.parameters_by_type) w.field(type, count);
    w.end_object();
    w.field("tensors", s.tensors);
    w.field("parameters", s.parameters);
    w.field("bytes", s.bytes);
    w.end_object();
  }
  w.end_array();
}

void write_templates(JsonWriter& w, const std::vector<DirectoryTemplate>& templates) {
  w.begin_array();
  for (const DirectoryTemplate& t : templates) {
    w.begin_object();
    w.field("file", t.file);
    w.field("name", t.info.name);
    w.field("bytes", t.info.bytes);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void write_directory_fields(JsonWriter& w, const DirectoryReport& r) {
  write_entry_head(w, "model-directory", r.valid, r.summary.bytes, r.findings, r.findings_dropped);
  const DirectorySummary& s = r.summary;
  w.key("summary");
  w.begin_object();
  w.key("architecture");
  if (s.architecture) w.string(*s.architecture); else w.null();
  w.key("layers");
  if (s.layers) w.number(*s.layers); else w.null();
  w.key("parameter_count");  // as the hub's SafetensorsRepoMetadata: parameters by dtype
  w.begin_object();
  for (const auto& [dtype, count] : s.parameters_by_dtype) w.field(dtype, count);
  w.end_object();
  w.field("parameters", s.parameters);
  w.field("bytes", s.bytes);
  w.field("sharded", s.sharded);
  w.field("shard_count", s.shard_count);
  w.field("weight_map_size", s.weight_map_size);
  w.key("files");
  w.begin_array();
  for (const auto& f : s.files) w.string(f);
  w.end_array();
  w.field("weights_format", s.weights_format);
  w.key("other_files");  // no weights: listed, never silently skipped
  w.begin_array();
  for (const OtherFile& o : s.other_files) {
    w.begin_object();
    w.field("name", o.name);
    w.field("format", format_name(o.format));
    w.field("looks_like", o.looks_like);
    w.end_object();
  }
  w.end_array();
  w.key("split_sets");
  write_split_sets(w, s.split_sets);
  w.key("chat_templates");
  write_templates(w, s.chat_templates);
  w.key("savedmodel");  // a SavedModel directory's variables and assets
  if (s.savedmodel) {
    w.begin_object();
    w.field("variables", s.savedmodel->variables);
    w.field("shards", s.savedmodel->shards);
    w.field("variable_bytes", s.savedmodel->variable_bytes);
    w.key("assets");
    w.begin_array();
    for (const std::string& a : s.savedmodel->assets) w.string(a);
    w.end_array();
    w.end_object();
  } else {
    w.null();
  }
  w.key("keras");  // a Keras directory's config.json
  if (s.keras) write_keras_summary_json(w, *s.keras);
  else w.null();
  w.end_object();
  w.key("error");
  w.null();
}

}  // namespace tensorgate::detail

void tensorgate::write_directory_report_fields(JsonWriter& w, const DirectoryReport& report) {
  detail::write_directory_fields(w, report);
}
