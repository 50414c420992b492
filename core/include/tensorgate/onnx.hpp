#pragma once
// ONNX models (docs/rules.md, family OX): a ModelProto read as it streams through the protobuf
// wire reader, its graphs, subgraphs, functions and training graphs; the summary a model gets,
// and the push validator. Tensor data is counted, never held.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;
struct Report;

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
  std::uint64_t offset = 0;  // where its TensorProto field starts in the file (its tag)
  // raw: where raw_data's bytes start in the file, so that a face can read them there (the
  // diff's --values); unset for other data, and for raw_data written in more than one field.
  std::optional<std::uint64_t> data_offset;
};

// A file the model's external data names (a relative path inside the model's directory).
struct OnnxExternalFile {
  std::string location;             // as written
  std::uint64_t bytes_needed = 0;   // the largest offset + length a tensor reads from it
  std::string farthest_tensor;      // the tensor that reads that far
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
  std::vector<OnnxExternalFile> external_files;  // distinct locations, in first-seen order
  std::uint64_t external_files_not_listed = 0;
};
// How the reports write it (core/src/onnx/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const OnnxSummary*);

// What the face that has the files (the CLI) finds at an external data location, looked up in
// the model's directory without following a symbolic link at any component.
struct ExternalFileFacts {
  enum class Kind : unsigned char { regular, missing, not_regular, symlink };
  Kind kind = Kind::missing;
  std::uint64_t size = 0;   // a regular file's
  std::uint64_t links = 1;  // a regular file's names (hard links)
};
using ExternalFileLookup = std::function<ExternalFileFacts(std::string_view location)>;

// OX.external-missing, OX.external-link and OX.external-short for an ONNX report's external
// files as `lookup` finds them, added within Limits::max_findings (an error makes the report
// invalid). Reports of other formats, and aborted ones, are left as they are.
void check_external_files(Report& report, const ExternalFileLookup& lookup, const Limits& limits = {});

std::unique_ptr<Validator> make_onnx_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
