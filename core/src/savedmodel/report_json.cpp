// The SavedModel summary as JSON: which file, its meta graphs (tags, TensorFlow version,
// signatures with their tensors), node counts by op, the dangerous ops with the nodes that run
// them, and keras_metadata.pb's objects by class.
#include "savedmodel/report_writers.hpp"

namespace tensorgate::detail {
namespace {

void write_tensors(JsonWriter& w, std::string_view key, const std::vector<SavedModelTensor>& tensors) {
  w.key(key);
  w.begin_array();
  for (const SavedModelTensor& t : tensors) {
    w.begin_object();
    w.field("key", t.key);
    w.field("name", t.name);
    w.field("dtype", t.dtype);
    w.key("shape");
    if (t.has_shape) {
      w.begin_array();
      for (const std::int64_t d : t.shape) w.number(d);
      w.end_array();
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
}

void write_meta_graph(JsonWriter& w, const SavedModelMetaGraph& g) {
  w.begin_object();
  w.key("tags");
  w.begin_array();
  for (const std::string& t : g.tags) w.string(t);
  w.end_array();
  w.field("tensorflow_version", g.tensorflow_version);
  w.key("signatures");
  w.begin_array();
  for (const SavedModelSignature& s : g.signatures) {
    w.begin_object();
    w.field("key", s.key);
    w.field("method_name", s.method_name);
    write_tensors(w, "inputs", s.inputs);
    write_tensors(w, "outputs", s.outputs);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

Steps write_savedmodel_summary(StepContext& c, const SavedModelSummary& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "savedmodel");
  w.field("file", s.file);
  w.field("schema_version", s.schema_version);
  w.key("meta_graphs");
  w.begin_array();
  for (const SavedModelMetaGraph& g : s.meta_graphs) write_meta_graph(w, g);
  w.end_array();
  w.field("meta_graphs_not_listed", s.meta_graphs_not_listed);
  w.field("signatures_not_listed", s.signatures_not_listed);
  w.field("nodes", s.nodes);
  w.field("functions", s.functions);
  w.field("function_nodes", s.function_nodes);
  co_await write_records(c, "ops", s.ops, [](JsonWriter& out, const SavedModelOpCount& o) {
    out.field("op", o.op);
    out.field("count", o.count);
  }, "ops_not_listed", s.ops_not_listed);
  w.key("dangerous_ops");
  w.begin_array();
  for (const SavedModelDangerousOp& d : s.dangerous_ops) {
    w.begin_object();
    w.field("op", d.op);
    w.key("nodes");
    w.begin_array();
    for (const std::string& n : d.nodes) w.string(n);
    w.end_array();
    w.field("nodes_not_listed", d.nodes_not_listed);
    w.end_object();
  }
  w.end_array();
  w.field("keras_objects", s.keras_objects);
  co_await write_records(c, "keras_classes", s.keras_classes, [](JsonWriter& out, const SavedModelOpCount& o) {
    out.field("class_name", o.op);
    out.field("count", o.count);
  }, "keras_classes_not_listed", s.keras_classes_not_listed);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(SavedModelSummary, write_savedmodel_summary, savedmodel_text_facts)
