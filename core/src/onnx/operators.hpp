#pragma once
// onnx's own operators (operators.def, generated from onnx's operator documents), for
// OX.unknown-op: which op types the domains ai.onnx, ai.onnx.ml and ai.onnx.preview.training
// define, from which opset version, and which are deprecated from which.
#include <cstdint>
#include <string_view>

namespace tensorgate::detail::onnx {

struct OperatorInfo {
  std::string_view domain, op_type;
  std::uint32_t since = 0;       // the first opset version that defines it
  std::uint32_t deprecated = 0;  // the opset version that deprecates it, or 0
};

// Whether `domain` is one of those whose operators the table holds ("" is ai.onnx).
bool has_operator_table(std::string_view domain);
// The operator, or null when the domain does not define it.
const OperatorInfo* find_operator(std::string_view domain, std::string_view op_type);

}  // namespace tensorgate::detail::onnx
