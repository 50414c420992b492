#pragma once
// TensorFlow SavedModels (docs/rules.md, family TF): saved_model.pb and keras_metadata.pb read
// as they stream through the protobuf wire reader; the summary a file gets, the push validator,
// and the checks of a SavedModel directory's variables/ folder. Tensor constants are skipped,
// never held.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

// A tensor of a signature: its key in the signature, the graph tensor it names, its dtype and
// shape (-1 an unknown dimension; no shape when its rank is unknown).
struct SavedModelTensor {
  std::string key, name, dtype;
  std::vector<std::int64_t> shape;
  bool has_shape = false;
};

struct SavedModelSignature {
  std::string key;          // "serving_default", ...
  std::string method_name;  // "tensorflow/serving/predict", ...
  std::vector<SavedModelTensor> inputs, outputs;
};

struct SavedModelMetaGraph {
  std::vector<std::string> tags;  // "serve", "train", ...
  std::string tensorflow_version;
  std::vector<SavedModelSignature> signatures;
};

struct SavedModelOpCount {
  std::string op;
  std::uint64_t count = 0;
};

// A dangerous op (TF.dangerous-op) and the nodes that run it.
struct SavedModelDangerousOp {
  std::string op;
  std::vector<std::string> nodes;
  std::uint64_t nodes_not_listed = 0;
};

struct SavedModelSummary {
  // Which file it is: "saved_model" (a SavedModel) or "keras_metadata" (Keras's object list).
  std::string file;
  std::uint64_t schema_version = 0;
  std::vector<SavedModelMetaGraph> meta_graphs;
  std::uint64_t meta_graphs_not_listed = 0;
  std::uint64_t signatures_not_listed = 0;
  std::uint64_t nodes = 0;           // of the graphs
  std::uint64_t functions = 0;       // in the graphs' function libraries
  std::uint64_t function_nodes = 0;  // in those functions
  std::vector<SavedModelOpCount> ops;  // nodes by op, in first-seen order (graphs and functions)
  std::uint64_t ops_not_listed = 0;
  std::vector<SavedModelDangerousOp> dangerous_ops;
  // keras_metadata.pb: its objects, and the layer classes their metadata names.
  std::uint64_t keras_objects = 0;
  std::vector<SavedModelOpCount> keras_classes;
  std::uint64_t keras_classes_not_listed = 0;
};
// How the reports write it (core/src/savedmodel/report_json.cpp and report_text.cpp).
const SummaryOps& summary_ops(const SavedModelSummary*);

std::unique_ptr<Validator> make_savedmodel_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

// A SavedModel directory's variables/ folder as the face that has the files finds it.
struct SavedModelVariables {
  bool folder = false;                        // variables/ exists
  std::optional<std::string> index;           // variables/variables.index, read whole (Limits::savedmodel.max_index_bytes)
  bool index_too_large = false;               // larger than that: not read
  struct Shard {
    std::string name;                          // "variables.data-00000-of-00001"
    std::uint64_t size = 0;
  };
  std::vector<Shard> shards;                   // the variables.data-* files, sorted by name
  std::vector<std::string> assets;             // the files of assets/, relative to it
  // The variables saved_model.pb's graph creates (its VarHandleOp, VariableV2 and Variable
  // nodes, savedmodel_graph_variables()): TensorFlow restores each from variables/.
  std::uint64_t graph_variables = 0;
};

// The variable-creating nodes of a SavedModel report's graph (0 for any other report).
std::uint64_t savedmodel_graph_variables(const SavedModelSummary& summary);

// What the directory holds beside saved_model.pb, as its summary lists it.
struct SavedModelDirectorySummary {
  std::uint64_t variables = 0;        // the index's entries (the header not counted)
  std::uint64_t shards = 0;           // as the index says
  std::uint64_t variable_bytes = 0;   // the entries' sizes, summed
  std::vector<std::string> assets;
};

// TF.variables for a SavedModel directory: the index read as TensorFlow's table of tensor
// bundle entries, each entry's shard present and long enough. Findings are added to `out`
// within Limits::max_findings; the summary says what was found.
SavedModelDirectorySummary check_savedmodel_variables(const SavedModelVariables& vars, const Limits& limits,
                                                      std::vector<Finding>& out);

}  // namespace tensorgate
