#pragma once
// TensorFlow Lite's schema (tensorflow/lite/schema/schema.fbs) as the verifier walks it: which
// tables there are, each table's fields by id with the type flatbuffers' generated Verify()
// checks them as, and what the reader does with what a field points at (its role). Option
// tables of the BuiltinOptions unions are walked as opaque tables: their start and vtable are
// verified, their fields are not known here.
#include <cstdint>
#include <span>
#include <string_view>

namespace tensorgate::detail::tflite {

enum class Kind : std::uint8_t {
  model,
  operator_code,
  subgraph,
  tensor,
  op,
  buffer,
  metadata,
  signature_def,
  tensor_map,
  quantization,
  custom_quantization,
  sparsity,
  dimension_metadata,
  int32_vector,
  uint16_vector,
  uint8_vector,
  variant_subtype,
  options,  // a BuiltinOptions table: opaque
};

// What the thing a field points at is for: the reader's use of a vector, string or table.
enum class Role : std::uint8_t {
  none,  // verified and then only counted
  model_operator_codes,
  model_subgraphs,
  model_description,
  model_buffers,
  model_metadata,
  model_signatures,
  opcode_custom,
  subgraph_tensors,
  subgraph_inputs,
  subgraph_outputs,
  subgraph_operators,
  subgraph_name,
  tensor_shape,
  tensor_name,
  op_inputs,
  op_outputs,
  buffer_data,  // tensor data: only its length is read, the rest skipped
  metadata_name,
  signature_key,
  table,  // a table with nothing kept of it but what its own kind keeps
};

enum class FieldType : std::uint8_t {
  scalar,        // `size` bytes, aligned to `size`
  string,        // offset to a string
  vector,        // offset to a vector of `size`-byte scalars
  table_vector,  // offset to a vector of offsets to tables of `kind`
  table,         // offset to a table of `kind`
  union_type,    // the byte that says which table the union's value is
  union_value,   // offset to a table, of a kind the type field (`id` - 1) says
};

struct Field {
  std::uint8_t id;
  FieldType type;
  std::uint8_t size;  // a scalar's or a vector element's bytes
  Kind kind;          // a table's, or a table vector's elements'
  Role role;
};

std::span<const Field> fields_of(Kind kind);
const char* kind_name(Kind kind);

// The table a union's value is, from its kind and type byte; false when the generated verifier
// does not look at it (NONE, or a type past the union's members).
bool union_member(Kind table, std::uint8_t field_id, std::uint8_t type, Kind& member);

// Field ids used by the reader of each kind (schema.fbs declaration order).
namespace field {
inline constexpr std::uint8_t model_version = 0;
inline constexpr std::uint8_t opcode_deprecated_builtin = 0, opcode_version = 2, opcode_builtin = 3;
inline constexpr std::uint8_t tensor_type = 1, tensor_buffer = 2, tensor_sparsity = 6;
inline constexpr std::uint8_t op_opcode_index = 0;
inline constexpr std::uint8_t buffer_offset = 1, buffer_size = 2;
inline constexpr std::uint8_t metadata_buffer = 1;
inline constexpr std::uint8_t signature_subgraph = 4;
}  // namespace field

// TensorType: its name, and its size in bits per element (0: no fixed size, STRING, RESOURCE,
// VARIANT); false past the enum.
bool tensor_type(std::int8_t type, std::string_view& name, std::uint32_t& bits);
inline constexpr std::int32_t kBuiltinCustom = 32;
// The BuiltinOperator's name, or empty past those known.
std::string_view builtin_name(std::int32_t code);

}  // namespace tensorgate::detail::tflite
