#include "tflite/schema.hpp"

#include <array>

namespace tensorgate::detail::tflite {
namespace {

using FT = FieldType;

constexpr Field scalar(std::uint8_t id, std::uint8_t size) { return {id, FT::scalar, size, Kind::options, Role::none}; }
constexpr Field string(std::uint8_t id, Role role = Role::none) { return {id, FT::string, 1, Kind::options, role}; }
constexpr Field vector(std::uint8_t id, std::uint8_t size, Role role = Role::none) {
  return {id, FT::vector, size, Kind::options, role};
}
constexpr Field tables(std::uint8_t id, Kind kind, Role role = Role::table) { return {id, FT::table_vector, 4, kind, role}; }
constexpr Field table(std::uint8_t id, Kind kind) { return {id, FT::table, 4, kind, Role::table}; }
constexpr Field union_type(std::uint8_t id) { return {id, FT::union_type, 1, Kind::options, Role::none}; }
constexpr Field union_value(std::uint8_t id) { return {id, FT::union_value, 4, Kind::options, Role::table}; }

// Field ids are declaration order in schema.fbs, a union taking two (its type, then its value).
constexpr std::array kModel{scalar(0, 4),
                            tables(1, Kind::operator_code, Role::model_operator_codes),
                            tables(2, Kind::subgraph, Role::model_subgraphs),
                            string(3, Role::model_description),
                            tables(4, Kind::buffer, Role::model_buffers),
                            vector(5, 4),
                            tables(6, Kind::metadata, Role::model_metadata),
                            tables(7, Kind::signature_def, Role::model_signatures)};
constexpr std::array kOperatorCode{scalar(0, 1), string(1, Role::opcode_custom), scalar(2, 4), scalar(3, 4)};
constexpr std::array kSubGraph{tables(0, Kind::tensor, Role::subgraph_tensors), vector(1, 4, Role::subgraph_inputs),
                               vector(2, 4, Role::subgraph_outputs), tables(3, Kind::op, Role::subgraph_operators),
                               string(4, Role::subgraph_name)};
constexpr std::array kTensor{vector(0, 4, Role::tensor_shape), scalar(1, 1), scalar(2, 4), string(3, Role::tensor_name),
                             table(4, Kind::quantization), scalar(5, 1), table(6, Kind::sparsity), vector(7, 4),
                             scalar(8, 1), tables(9, Kind::variant_subtype)};
constexpr std::array kOperator{scalar(0, 4), vector(1, 4, Role::op_inputs), vector(2, 4, Role::op_outputs),
                               union_type(3), union_value(4), vector(5, 1), scalar(6, 1), vector(7, 1), vector(8, 4),
                               scalar(9, 8), scalar(10, 8), union_type(11), union_value(12)};
constexpr std::array kBuffer{vector(0, 1, Role::buffer_data), scalar(1, 8), scalar(2, 8)};
constexpr std::array kMetadata{string(0, Role::metadata_name), scalar(1, 4)};
constexpr std::array kTensorMap{string(0), scalar(1, 4)};
// deprecated_tag (id 3) is deprecated: the generated verifier does not look at it.
constexpr std::array kSignatureDef{tables(0, Kind::tensor_map), tables(1, Kind::tensor_map),
                                   string(2, Role::signature_key), scalar(4, 4)};
constexpr std::array kQuantization{vector(0, 4), vector(1, 4), vector(2, 4), vector(3, 8),
                                   union_type(4), union_value(5), scalar(6, 4)};
constexpr std::array kCustomQuantization{vector(0, 1)};
constexpr std::array kSparsity{vector(0, 4), vector(1, 4), tables(2, Kind::dimension_metadata)};
constexpr std::array kDimensionMetadata{scalar(0, 1), scalar(1, 4), union_type(2), union_value(3), union_type(4),
                                        union_value(5)};
constexpr std::array kInt32Vector{vector(0, 4)};
constexpr std::array kUint16Vector{vector(0, 2)};
constexpr std::array kUint8Vector{vector(0, 1)};
constexpr std::array kVariantSubType{vector(0, 4), scalar(1, 1), scalar(2, 1)};

struct TypeRow {
  const char* name;
  std::uint32_t bits;
};
// TensorType, by value: bits per element (0: no fixed size).
constexpr std::array<TypeRow, 18> kTypes{{{"FLOAT32", 32},  {"FLOAT16", 16},   {"INT32", 32},  {"UINT8", 8},
                                          {"INT64", 64},    {"STRING", 0},     {"BOOL", 8},    {"INT16", 16},
                                          {"COMPLEX64", 64}, {"INT8", 8},      {"FLOAT64", 64}, {"COMPLEX128", 128},
                                          {"UINT64", 64},   {"RESOURCE", 0},   {"VARIANT", 0}, {"UINT32", 32},
                                          {"UINT16", 16},   {"INT4", 4}}};

constexpr std::array kBuiltins{
#define TG_TFL_BUILTIN(value, name) std::string_view(name),
#include "tflite/builtin_ops.def"
#undef TG_TFL_BUILTIN
};

}  // namespace

std::span<const Field> fields_of(Kind kind) {
  switch (kind) {
    case Kind::model: return kModel;
    case Kind::operator_code: return kOperatorCode;
    case Kind::subgraph: return kSubGraph;
    case Kind::tensor: return kTensor;
    case Kind::op: return kOperator;
    case Kind::buffer: return kBuffer;
    case Kind::metadata: return kMetadata;
    case Kind::signature_def: return kSignatureDef;
    case Kind::tensor_map: return kTensorMap;
    case Kind::quantization: return kQuantization;
    case Kind::custom_quantization: return kCustomQuantization;
    case Kind::sparsity: return kSparsity;
    case Kind::dimension_metadata: return kDimensionMetadata;
    case Kind::int32_vector: return kInt32Vector;
    case Kind::uint16_vector: return kUint16Vector;
    case Kind::uint8_vector: return kUint8Vector;
    case Kind::variant_subtype: return kVariantSubType;
    case Kind::options: return {};
  }
  return {};
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::model: return "the Model table";
    case Kind::operator_code: return "an OperatorCode table";
    case Kind::subgraph: return "a SubGraph table";
    case Kind::tensor: return "a Tensor table";
    case Kind::op: return "an Operator table";
    case Kind::buffer: return "a Buffer table";
    case Kind::metadata: return "a Metadata table";
    case Kind::signature_def: return "a SignatureDef table";
    case Kind::tensor_map: return "a TensorMap table";
    case Kind::quantization: return "a QuantizationParameters table";
    case Kind::custom_quantization: return "a CustomQuantization table";
    case Kind::sparsity: return "a SparsityParameters table";
    case Kind::dimension_metadata: return "a DimensionMetadata table";
    case Kind::int32_vector: return "an Int32Vector table";
    case Kind::uint16_vector: return "a Uint16Vector table";
    case Kind::uint8_vector: return "a Uint8Vector table";
    case Kind::variant_subtype: return "a VariantSubType table";
    case Kind::options: return "an operator's options table";
  }
  return "a table";
}

// BuiltinOptions and BuiltinOptions2 have a table for every member; the reader walks any member
// as an opaque table, a type past those it knows too (only its start and vtable are checked).
bool union_member(Kind table, std::uint8_t field_id, std::uint8_t type, Kind& member) {
  if (type == 0) return false;
  switch (table) {
    case Kind::op: member = Kind::options; return true;
    case Kind::quantization:
      member = Kind::custom_quantization;
      return type == 1;
    case Kind::dimension_metadata:
      if (type > 3) return false;
      member = type == 1 ? Kind::int32_vector : type == 2 ? Kind::uint16_vector : Kind::uint8_vector;
      return true;
    default: (void)field_id; return false;
  }
}

bool tensor_type(std::int8_t type, std::string_view& name, std::uint32_t& bits) {
  if (type < 0 || static_cast<std::size_t>(type) >= kTypes.size()) return false;
  name = kTypes[static_cast<std::size_t>(type)].name;
  bits = kTypes[static_cast<std::size_t>(type)].bits;
  return true;
}

std::string_view builtin_name(std::int32_t code) {
  if (code < 0 || static_cast<std::size_t>(code) >= kBuiltins.size()) return {};
  return kBuiltins[static_cast<std::size_t>(code)];
}

}  // namespace tensorgate::detail::tflite
