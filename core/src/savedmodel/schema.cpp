#include "savedmodel/schema.hpp"

namespace tensorgate::detail::savedmodel {
namespace {

using protobuf::LenAction;
using protobuf::LenChoice;

constexpr LenChoice skip{LenAction::skip, 0};
constexpr LenChoice keep{LenAction::keep, 0};
constexpr LenChoice message(Kind k) { return {LenAction::message, k}; }

}  // namespace

LenChoice len_choice(std::uint16_t kind, std::uint32_t field, TopMessage top, bool keep_string) {
  switch (kind) {
    case root:
      if (top == TopMessage::keras_metadata) return field == 1 ? message(keras_object) : skip;
      return field == 2 ? message(meta_graph) : skip;
    case keras_object:
      switch (field) {
        case 3:  // node_path
        case 4:  // identifier
        case 5: return keep;  // metadata (JSON)
        default: return skip;
      }
    case meta_graph:
      switch (field) {
        case 1: return message(meta_info);
        case 2: return message(graph);
        case 5: return message(signature_entry);
        default: return skip;  // saver_def, collection_def, asset_file_def, object_graph_def
      }
    case meta_info: return field == 4 || field == 5 ? keep : skip;  // tags, tensorflow_version
    case graph:
      switch (field) {
        case 1: return message(node);
        case 2: return message(library);
        default: return skip;  // versions, debug_info
      }
    case library: return field == 1 ? message(function) : skip;  // gradients are names only
    case function:
      switch (field) {
        case 1: return message(op_def);
        case 3: return message(node);
        default: return skip;  // attr, arg_attr, ret, control_ret
      }
    case op_def: return field == 1 ? keep : skip;
    case node:
      switch (field) {
        case 1:  // name
        case 2: return keep;  // op
        case 5: return message(attr_entry);
        default: return skip;  // input, device, debug info, full type
      }
    case attr_entry:
      if (field == 1) return keep;
      return field == 2 ? message(attr_value) : skip;
    case attr_value:
      switch (field) {
        case 1: return message(list_value);
        case 2: return keep_string ? keep : skip;  // s
        case 10: return message(name_attr_list);  // func
        default: return skip;  // shape, tensor (constants are skipped unread), placeholder
      }
    case list_value:
      switch (field) {
        case 2: return keep_string ? keep : skip;  // s
        case 9: return message(name_attr_list);    // func
        default: return skip;
      }
    case name_attr_list: return field == 2 ? message(attr_entry) : skip;
    case signature_entry:
      if (field == 1) return keep;
      return field == 2 ? message(signature) : skip;
    case signature:
      switch (field) {
        case 1: return message(input_entry);
        case 2: return message(output_entry);
        case 3: return keep;  // method_name
        default: return skip;  // defaults
      }
    case input_entry:
    case output_entry:
      if (field == 1) return keep;
      return field == 2 ? message(tensor_info) : skip;
    case tensor_info:
      if (field == 1) return keep;  // name
      return field == 3 ? message(tensor_shape) : skip;
    case tensor_shape: return field == 2 ? message(tensor_dim) : skip;
    default: return skip;
  }
}

}  // namespace tensorgate::detail::savedmodel
