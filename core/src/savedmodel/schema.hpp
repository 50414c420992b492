#pragma once
// The part of TensorFlow's protos the validator reads (saved_model.proto, meta_graph.proto,
// graph.proto, function.proto, node_def.proto, attr_value.proto, tensor_shape.proto; Keras's
// saved_metadata.proto): each message type is a Kind of the wire reader
// (protobuf/wire_reader.hpp). Fields not listed are skipped unread: tensor constants, the
// object graph, saver and collection defs, debug info.
#include <cstdint>

#include "protobuf/wire_reader.hpp"

namespace tensorgate::detail::savedmodel {

enum Kind : std::uint16_t {
  root,            // the file's top message: SavedModel, or Keras's SavedMetadata (by its first field)
  keras_object,    // SavedMetadata.nodes: a SavedObject (identifier, metadata JSON)
  meta_graph,      // MetaGraphDef
  meta_info,       // MetaGraphDef.MetaInfoDef: tags, tensorflow_version
  graph,           // GraphDef
  library,         // FunctionDefLibrary
  function,        // FunctionDef
  op_def,          // FunctionDef.signature (OpDef): the function's name
  node,            // NodeDef, of a graph or a function
  attr_entry,      // map<string, AttrValue> entry: key 1, value 2
  attr_value,      // AttrValue
  list_value,      // AttrValue.ListValue
  name_attr_list,  // NameAttrList (a function and its attributes)
  signature_entry, // map<string, SignatureDef> entry
  signature,       // SignatureDef
  input_entry,     // map<string, TensorInfo> entry of its inputs
  output_entry,    //   ... and of its outputs
  tensor_info,     // TensorInfo
  tensor_shape,    // TensorShapeProto
  tensor_dim,      // TensorShapeProto.Dim
  kind_count,
};

// Which of the two files the top message is, from its first field.
enum class TopMessage : std::uint8_t { unknown, saved_model, keras_metadata };

// What to do with field `field` (length-delimited) of a message of kind `kind`; `top` says how
// the top message's own fields read, `keep_string` whether an attribute's string values are
// wanted (the attribute is one a check reads).
protobuf::LenChoice len_choice(std::uint16_t kind, std::uint32_t field, TopMessage top, bool keep_string);

}  // namespace tensorgate::detail::savedmodel
