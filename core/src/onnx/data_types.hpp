#pragma once
// TensorProto.DataType (onnx.proto of IR version 13: up to UINT2 and INT2): each type's name, its
// bits per element, and the typed field that holds its values when raw_data does not.
#include <cstdint>
#include <string_view>

namespace tensorgate::detail::onnx {

enum class TypedField : std::uint8_t { none, float_data, int32_data, int64_data, double_data, uint64_data, string_data };

struct DataType {
  std::string_view name;
  unsigned bits;            // 0: no fixed size (STRING)
  TypedField field;
  unsigned values_per_element;  // 2 for the complex types (real, imaginary)
  unsigned elements_per_value;  // int32_data packs two 4-bit or four 2-bit elements in a value
};

// The type with this id, or nothing for 0 (UNDEFINED) and ids no release defines.
const DataType* data_type(std::uint64_t id);
// Its name, "UNDEFINED" or "unknown".
std::string_view data_type_name(std::uint64_t id);

}  // namespace tensorgate::detail::onnx
