#pragma once
// The part of onnx.proto (ONNX IR 11, proto2) the validator reads: each message type is a Kind,
// and a length-delimited field of a kind is skipped, kept, descended into or read as packed
// numbers (protobuf/wire_reader.hpp). A message type may have several kinds when where it sits
// matters (the main graph's inputs, an initializer against an attribute's tensor). Fields not
// listed are skipped: protobuf readers keep unknown fields without reading them.
#include <cstdint>

#include "protobuf/wire_reader.hpp"

namespace tensorgate::detail::onnx {

enum Kind : std::uint16_t {
  model,             // ModelProto (the top message)
  opset,             // OperatorSetIdProto of the model
  main_graph,        // ModelProto.graph
  sub_graph,         // a graph in an attribute, a training graph
  node,              // NodeProto
  attribute,         // AttributeProto
  initializer,       // a graph's initializer
  other_tensor,      // an attribute's tensor, a sparse tensor's values or indices
  sparse_tensor,     // SparseTensorProto
  main_input,        // ValueInfoProto of the main graph's inputs
  main_output,       //   ... and outputs
  value_info,        // any other ValueInfoProto
  main_type,         // TypeProto of a main input or output
  main_tensor_type,  // TypeProto.Tensor there
  main_shape,        // TensorShapeProto there
  main_dim,          // TensorShapeProto.Dimension there
  type,              // any other TypeProto
  tensor_type,       // TypeProto.Tensor, TypeProto.SparseTensor
  shape,
  dim,
  sequence_type,     // TypeProto.Sequence, TypeProto.Optional: elem_type = 1
  map_type,          // TypeProto.Map: value_type = 2
  external_entry,    // TensorProto.external_data (StringStringEntryProto)
  function,          // FunctionProto
  training,          // TrainingInfoProto
  kind_count,
};

// What to do with field `field` (length-delimited) of a message of kind `kind`.
protobuf::LenChoice len_choice(std::uint16_t kind, std::uint32_t field);

}  // namespace tensorgate::detail::onnx
