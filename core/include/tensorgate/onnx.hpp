#pragma once
// ONNX models (docs/rules.md, family OX): a ModelProto read as it streams through the protobuf
// wire reader, its graphs, subgraphs, functions and training graphs; the summary a model gets,
// and the push validator. Tensor data is counted, never held.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

struct OnnxOpset {
  std::string domain;  // "" is the default domain (ai.onnx)
  std::int64_t version = 0;
};

// A graph input or output of the main graph: its element type and shape as declared.
struct OnnxValue {
  std::string name;
  std::string type;                // "FLOAT", "INT64", ...; "" when not a tensor type
  std::vector<std::string> shape;  // each dimension: a number, a symbolic name, or "?"
  bool has_shape = false;
};

// An initializer (of any graph), with where its data is.
struct OnnxTensor {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t elements = 0;
  std::uint64_t bytes = 0;  // of its data, as stored
  std::string data;         // "raw", "typed", "external", "none"
  std::string location;     // external: the file, as written
};

struct OnnxOpCount {
  std::string domain;
  std::string op_type;
  std::uint64_t count = 0;
};

struct OnnxDtypeTotals {
  std::string dtype;
  std::uint64_t tensors = 0, parameters = 0, bytes = 0;
};

struct OnnxSummary {
  std::uint64_t ir_version = 0;
  std::string producer_name, producer_version, domain;
  std::int64_t model_version = 0;
  std::vector<OnnxOpset> opsets;
  std::vector<OnnxValue> inputs, outputs;  // the main graph's
  std::uint64_t values_not_listed = 0;
  std::uint64_t graphs = 0;     // the main graph, subgraphs and training graphs
  std::uint64_t functions = 0;
  std::uint64_t nodes = 0;      // in every graph and function
  std::vector<OnnxOpCount> ops;  // node counts by domain and op type, in first-seen order
  std::uint64_t ops_not_listed = 0;
  std::vector<OnnxTensor> initializers;
  std::uint64_t initializers_not_listed = 0;
  std::uint64_t parameters = 0, bytes = 0;  // the initializers'
  std::vector<OnnxDtypeTotals> by_dtype;
  std::vector<std::string> external_files;  // distinct locations, in first-seen order
};
// How the reports write it (core/src/onnx/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const OnnxSummary*);

std::unique_ptr<Validator> make_onnx_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
