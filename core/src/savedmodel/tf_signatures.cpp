// The meta graphs' signatures: each SignatureDef's method and its input and output tensors with
// their dtypes and shapes, listed when they end within the summary's bounds.
#include <array>

#include "savedmodel/validator.hpp"

namespace tensorgate::detail::savedmodel {
namespace {

// types.proto's DataType, by number, in TensorFlow's Python names; a reference type is 100 more.
constexpr std::array<std::string_view, 33> kDtypes{
    "invalid", "float32", "float64", "int32", "uint8", "int16", "int8", "string", "complex64", "int64", "bool",
    "qint8", "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16", "complex128", "float16", "resource",
    "variant", "uint32", "uint64", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz",
    "float8_e5m2fnuz", "int4", "uint4", "int2", "uint2"};

std::uint64_t listed_cost(const SavedModelTensor& t) {
  return sizeof t + t.key.size() + t.name.size() + t.dtype.size() + t.shape.size() * sizeof(std::int64_t);
}

}  // namespace

std::string dtype_name(std::uint64_t type) {
  if (type < kDtypes.size()) return std::string(kDtypes[type]);
  if (type > 100 && type - 100 < kDtypes.size()) return std::string(kDtypes[type - 100]) + "_ref";
  return "DT_" + std::to_string(type);
}

void SavedModelValidator::signature_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes) {
  switch (kind) {
    case signature_entry:
      if (signature_) signature_->key = cut(bytes);
      break;
    case signature:
      if (signature_ && field == 3) signature_->method_name = cut(bytes);
      break;
    case input_entry:
    case output_entry:
      if (tensor_) tensor_->key = cut(bytes);
      break;
    case tensor_info:
      if (tensor_) tensor_->name = cut(bytes);
      break;
    default: break;
  }
}

void SavedModelValidator::signature_end(std::uint16_t kind) {
  switch (kind) {
    case input_entry:
    case output_entry:
      if (tensor_ && signature_ && signature_->inputs.size() + signature_->outputs.size() < limits_.savedmodel.max_listed_values &&
          take_listed(listed_cost(*tensor_)))
        (tensor_is_output_ ? signature_->outputs : signature_->inputs).push_back(std::move(*tensor_));
      tensor_.reset();
      break;
    case signature_entry:
      if (signature_ && meta_graph_ && meta_graph_->signatures.size() < limits_.savedmodel.max_listed_values &&
          take_listed(sizeof *signature_ + signature_->key.size() + signature_->method_name.size()))
        meta_graph_->signatures.push_back(std::move(*signature_));
      else
        ++summary_.signatures_not_listed;
      signature_.reset();
      break;
    default: break;
  }
}

}  // namespace tensorgate::detail::savedmodel
