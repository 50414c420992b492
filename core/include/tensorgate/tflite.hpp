#pragma once
// TFLite flatbuffers (docs/tflite.md, family TFL): every offset, table, vector and string
// verified inside the file, tensors against their buffers, custom and Flex ops judged.
// The summary a file gets, and the push validator.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

struct TfliteSubgraph {
  std::string name;
  std::uint64_t tensors = 0, operators = 0;
};

// One entry of the model's operator_codes.
struct TfliteOperatorCode {
  std::int32_t builtin = 0;  // the larger of deprecated_builtin_code and builtin_code, as TFLite reads it
  std::string name;          // the builtin's name ("FULLY_CONNECTED", "BUILTIN_205" for one not known) or the custom code
  bool custom = false;       // BuiltinOperator CUSTOM: `name` is its custom_code
  std::int32_t version = 1;
  std::uint64_t uses = 0;  // operators of every subgraph that name it
};

struct TfliteTensor {
  std::string name;
  std::uint32_t subgraph = 0;
  std::string type;                 // schema.fbs's TensorType name ("FLOAT32", "INT8", ...; "TYPE_<n>" when unknown)
  std::vector<std::int64_t> shape;  // as stored (a negative dimension is a TFL.model finding)
  std::uint32_t buffer = 0;
  std::uint64_t bytes = 0;  // of its buffer (inline data, or the size of data stored past the flatbuffer)
  std::optional<std::uint64_t> data_offset;  // where its buffer's bytes start in the file (none: no data)
  std::uint64_t offset = 0;                  // its Tensor table
};

struct TfliteSummary {
  std::uint32_t version = 0;  // the schema version (3)
  std::string description;
  std::vector<TfliteSubgraph> subgraphs;            // the first Limits::tflite.max_listed_tensors
  std::uint64_t subgraphs_not_listed = 0;
  std::vector<TfliteOperatorCode> operator_codes;  // the first Limits::tflite.max_listed_tensors
  std::uint64_t operator_codes_not_listed = 0;
  std::vector<TfliteTensor> tensors;  // of every subgraph, in order (Limits::tflite.max_listed_tensors)
  std::uint64_t tensors_not_listed = 0;
  std::uint64_t buffers = 0;             // entries of the buffer list
  std::uint64_t buffer_bytes = 0;        // their data, inline or past the flatbuffer
  std::uint64_t external_buffers = 0;    // buffers kept past the flatbuffer (offset and size: models over 2 GB)
  std::uint64_t parameters = 0;          // elements of the tensors that have data
  std::vector<std::string> signatures;   // signature keys (Limits::tflite.max_listed_tensors)
  std::vector<std::string> metadata;     // metadata names (Limits::tflite.max_listed_tensors) ("min_runtime_version", "TFLITE_METADATA", ...)
};
// How the reports write it (core/src/tflite/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const TfliteSummary*);

std::unique_ptr<Validator> make_tflite_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
