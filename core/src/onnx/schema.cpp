#include "onnx/schema.hpp"

namespace tensorgate::detail::onnx {
namespace {

using protobuf::LenAction;
using protobuf::LenChoice;

constexpr LenChoice skip{LenAction::skip, 0};
constexpr LenChoice keep{LenAction::keep, 0};
constexpr LenChoice packed_varint{LenAction::packed_varint, 0};
constexpr LenChoice packed_fixed32{LenAction::packed_fixed32, 0};
constexpr LenChoice packed_fixed64{LenAction::packed_fixed64, 0};
constexpr LenChoice message(Kind k) { return {LenAction::message, k}; }

LenChoice graph_field(bool main, std::uint32_t field) {
  switch (field) {
    case 1: return message(node);
    case 5: return message(initializer);
    case 15: return message(sparse_tensor);
    case 11: return message(main ? main_input : value_info);
    case 12: return message(main ? main_output : value_info);
    case 13: return message(value_info);
    default: return skip;  // name, doc_string, quantization annotations
  }
}

LenChoice type_field(bool main, std::uint32_t field) {
  switch (field) {
    case 1: return message(main ? main_tensor_type : tensor_type);
    case 4:
    case 9: return message(sequence_type);
    case 5: return message(map_type);
    case 8: return message(tensor_type);  // a sparse tensor type has the same fields
    default: return skip;
  }
}

}  // namespace

LenChoice len_choice(std::uint16_t kind, std::uint32_t field) {
  switch (kind) {
    case model:
      switch (field) {
        case 2:  // producer_name
        case 3:  // producer_version
        case 4: return keep;  // domain
        case 7: return message(main_graph);
        case 8: return message(opset);
        case 20: return message(training);
        case 25: return message(function);
        default: return skip;  // doc_string, metadata_props
      }
    case opset: return field == 1 ? keep : skip;
    case main_graph: return graph_field(true, field);
    case sub_graph: return graph_field(false, field);
    case node:
      switch (field) {
        case 2:  // output
        case 4:  // op_type
        case 7: return keep;  // domain
        case 5: return message(attribute);
        default: return skip;  // inputs, name, doc_string
      }
    case attribute:
      switch (field) {
        case 5:
        case 10: return message(other_tensor);
        case 6:
        case 11: return message(sub_graph);
        case 22:
        case 23: return message(sparse_tensor);
        case 14:
        case 15: return message(type);
        case 7: return packed_fixed32;  // floats
        case 8: return packed_varint;   // ints
        default: return skip;
      }
    case initializer:
    case other_tensor:
      switch (field) {
        case 1:
        case 5:
        case 7:
        case 11: return packed_varint;  // dims, int32_data, int64_data, uint64_data
        case 4: return packed_fixed32;  // float_data
        case 10: return packed_fixed64;  // double_data
        case 8: return keep;  // name
        case 13: return message(external_entry);
        default: return skip;  // raw_data and string_data (counted), segment, doc_string
      }
    case sparse_tensor:
      switch (field) {
        case 1:
        case 2: return message(other_tensor);
        case 3: return packed_varint;
        default: return skip;
      }
    case main_input:
    case main_output:
      if (field == 1) return keep;
      return field == 2 ? message(main_type) : skip;
    case value_info: return field == 2 ? message(type) : skip;
    case main_type: return type_field(true, field);
    case type: return type_field(false, field);
    case main_tensor_type: return field == 2 ? message(main_shape) : skip;
    case tensor_type: return field == 2 ? message(shape) : skip;
    case main_shape: return field == 1 ? message(main_dim) : skip;
    case shape: return field == 1 ? message(dim) : skip;
    case main_dim: return field == 2 ? keep : skip;  // dim_param
    case sequence_type: return field == 1 ? message(type) : skip;
    case map_type: return field == 2 ? message(type) : skip;
    case external_entry: return field == 1 || field == 2 ? keep : skip;
    case function:
      switch (field) {
        case 1:  // name
        case 10: return keep;  // domain
        case 7: return message(node);
        case 11: return message(attribute);
        default: return skip;
      }
    case training:
      switch (field) {
        case 1:
        case 2: return message(sub_graph);
        default: return skip;
      }
    default: return skip;
  }
}

}  // namespace tensorgate::detail::onnx
