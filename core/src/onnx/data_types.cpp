#include "onnx/data_types.hpp"

#include <array>

namespace tensorgate::detail::onnx {
namespace {

using enum TypedField;

constexpr std::array<DataType, 27> kTypes{{
    {"UNDEFINED", 0, none, 1, 1},
    {"FLOAT", 32, float_data, 1, 1},
    {"UINT8", 8, int32_data, 1, 1},
    {"INT8", 8, int32_data, 1, 1},
    {"UINT16", 16, int32_data, 1, 1},
    {"INT16", 16, int32_data, 1, 1},
    {"INT32", 32, int32_data, 1, 1},
    {"INT64", 64, int64_data, 1, 1},
    {"STRING", 0, string_data, 1, 1},
    {"BOOL", 8, int32_data, 1, 1},
    {"FLOAT16", 16, int32_data, 1, 1},
    {"DOUBLE", 64, double_data, 1, 1},
    {"UINT32", 32, uint64_data, 1, 1},
    {"UINT64", 64, uint64_data, 1, 1},
    {"COMPLEX64", 64, float_data, 2, 1},
    {"COMPLEX128", 128, double_data, 2, 1},
    {"BFLOAT16", 16, int32_data, 1, 1},
    {"FLOAT8E4M3FN", 8, int32_data, 1, 1},
    {"FLOAT8E4M3FNUZ", 8, int32_data, 1, 1},
    {"FLOAT8E5M2", 8, int32_data, 1, 1},
    {"FLOAT8E5M2FNUZ", 8, int32_data, 1, 1},
    {"UINT4", 4, int32_data, 1, 2},
    {"INT4", 4, int32_data, 1, 2},
    {"FLOAT4E2M1", 4, int32_data, 1, 2},
    {"FLOAT8E8M0", 8, int32_data, 1, 1},
    {"UINT2", 2, int32_data, 1, 4},
    {"INT2", 2, int32_data, 1, 4},
}};

}  // namespace

const DataType* data_type(std::uint64_t id) {
  if (id == 0 || id >= kTypes.size()) return nullptr;
  return &kTypes[id];
}

std::string_view data_type_name(std::uint64_t id) {
  if (id < kTypes.size()) return kTypes[id].name;
  return "unknown";
}

}  // namespace tensorgate::detail::onnx
