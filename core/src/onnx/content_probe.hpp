#pragma once
// Whether the first bytes of an input are an ONNX model (kind/classify.cpp asks): a ModelProto
// as onnx, torch.onnx and every protobuf writer serialize it, fields in number order, so that
// ir_version (field 1, a varint) comes first and a field of ModelProto follows with its wire type.
// Only the start is judged: what follows is the validator's (a truncated or broken model is an
// ONNX file with OX findings, not unknown content).
#include <string_view>

namespace tensorgate::detail::onnx {

enum class ProbeVerdict { yes, no, undecided };

// `complete`: no more bytes will come. ir_version is taken from 1 to 127 (one varint byte): a
// model from an onnx newer than this reader is still ONNX, and OX.ir-version says so.
ProbeVerdict probe_model(std::string_view prefix, bool complete);

}  // namespace tensorgate::detail::onnx
