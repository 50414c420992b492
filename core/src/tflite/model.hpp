#pragma once
// What the walk gathers of a TFLite model while its tables pass, in whatever order their bytes
// come: each record is filled by the table or vector that holds it. Strings and integer vectors
// are kept as references into the kept bytes (KeptBytes), read again when the model is judged.
#include <cstdint>
#include <optional>
#include <vector>

namespace tensorgate::detail::tflite {

// A string or vector of the file: where its elements start, how many.
struct Ref {
  std::uint64_t at = 0;
  std::uint32_t count = 0;
  bool present = false;
};

struct OpCodeRecord {
  std::uint64_t offset = 0;
  std::int8_t deprecated_builtin = 0;
  std::int32_t builtin = 0, version = 1;
  Ref custom;
  std::uint64_t uses = 0;
};

struct TensorRecord {
  std::uint64_t offset = 0;
  Ref shape, name;
  std::int8_t type = 0;
  std::uint32_t buffer = 0;
  bool sparse = false, seen = false;
};

struct OperatorRecord {
  std::uint64_t offset = 0;
  std::uint32_t opcode_index = 0;
  Ref inputs, outputs;
  bool seen = false;
};

struct SubgraphRecord {
  std::vector<TensorRecord> tensors;
  std::vector<OperatorRecord> operators;
  Ref inputs, outputs, name;
  std::uint64_t offset = 0;
};

struct BufferRecord {
  std::uint64_t offset = 0;
  bool has_data = false;
  std::uint64_t data_at = 0, data_size = 0;  // the data vector's elements
  std::uint64_t external_offset = 0, external_size = 0;
  bool external() const { return external_offset > 1; }  // TFLite's rule: an offset of 0 or 1 means none
  std::uint64_t size() const { return has_data ? data_size : external() ? external_size : 0; }
};

struct MetadataRecord {
  Ref name;
  std::uint32_t buffer = 0;
};

struct ModelRecord {
  bool seen = false;
  std::uint32_t version = 0;
  Ref description;
  std::vector<OpCodeRecord> opcodes;
  std::vector<SubgraphRecord> subgraphs;
  bool has_subgraphs = false;
  std::vector<BufferRecord> buffers;
  std::vector<MetadataRecord> metadata;
  std::vector<Ref> signatures;
};

}  // namespace tensorgate::detail::tflite
