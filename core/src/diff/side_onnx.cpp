// An ONNX model's side: its initializers (of every graph) as the validator's summary lists them.
// Only raw_data written as one field is one run of bytes at a known offset in the file, so only
// those values are read; values in typed fields (varints, packed numbers) or in external files
// are compared by dtype and shape, and the pair says why not by value.
#include <algorithm>
#include <array>
#include <functional>

#include "side.hpp"
#include "tensorgate/onnx.hpp"

namespace tensorgate::detail::diff {
namespace {

// TensorProto.DataType by name: how the diff reads its elements, and the name the safetensors
// table gives the same type (so that an ONNX FLOAT beside a safetensors F32 is no dtype change).
struct OnnxType {
  std::string_view name;
  std::string_view common;  // "" when no other format has it
  Encoding encoding;
};

constexpr Encoding whole(ElementKind k, std::uint32_t bytes) { return Encoding{k, 1, bytes}; }

constexpr std::array<OnnxType, 26> kTypes{{
    {"FLOAT", "F32", whole(ElementKind::f32, 4)},
    {"DOUBLE", "F64", whole(ElementKind::f64, 8)},
    {"FLOAT16", "F16", whole(ElementKind::f16, 2)},
    {"BFLOAT16", "BF16", whole(ElementKind::bf16, 2)},
    {"INT8", "I8", whole(ElementKind::i8, 1)},
    {"INT16", "I16", whole(ElementKind::i16, 2)},
    {"INT32", "I32", whole(ElementKind::i32, 4)},
    {"INT64", "I64", whole(ElementKind::i64, 8)},
    {"UINT8", "U8", whole(ElementKind::u8, 1)},
    {"UINT16", "U16", whole(ElementKind::u16, 2)},
    {"UINT32", "U32", whole(ElementKind::u32, 4)},
    {"UINT64", "U64", whole(ElementKind::u64, 8)},
    {"BOOL", "BOOL", whole(ElementKind::boolean, 1)},
    // Compared as bytes within one type: complex pairs, the F8 variants, and the packed
    // sub-byte types as the smallest run of elements that fills whole bytes.
    {"COMPLEX64", "C64", whole(ElementKind::opaque, 8)},
    {"COMPLEX128", "", whole(ElementKind::opaque, 16)},
    {"FLOAT8E4M3FN", "F8_E4M3", whole(ElementKind::opaque, 1)},
    {"FLOAT8E4M3FNUZ", "F8_E4M3FNUZ", whole(ElementKind::opaque, 1)},
    {"FLOAT8E5M2", "F8_E5M2", whole(ElementKind::opaque, 1)},
    {"FLOAT8E5M2FNUZ", "F8_E5M2FNUZ", whole(ElementKind::opaque, 1)},
    {"FLOAT8E8M0", "F8_E8M0", whole(ElementKind::opaque, 1)},
    {"UINT4", "", Encoding{ElementKind::opaque, 2, 1}},
    {"INT4", "", Encoding{ElementKind::opaque, 2, 1}},
    {"FLOAT4E2M1", "F4", Encoding{ElementKind::opaque, 2, 1}},
    {"UINT2", "", Encoding{ElementKind::opaque, 4, 1}},
    {"INT2", "", Encoding{ElementKind::opaque, 4, 1}},
    {"STRING", "", Encoding{}},  // no fixed size: never read
}};

const OnnxType* onnx_type(std::string_view name) {
  const auto it = std::find_if(kTypes.begin(), kTypes.end(), [&](const OnnxType& t) { return t.name == name; });
  return it == kTypes.end() ? nullptr : &*it;
}

// Where --values reads the initializer's bytes, or why it does not.
std::string_view place(const OnnxTensor& t, const OnnxType* type, SideTensor& out) {
  if (t.data == "typed") return "its values are in a typed field of the TensorProto (float_data, int64_data, ...), not one run of bytes: compared by dtype and shape only";
  if (t.data == "external") return "its values are in an external data file, which the diff does not read: compared by dtype and shape only";
  if (t.data != "raw") return "it holds no data";
  if (!type || type->name == "STRING") return "the diff reads no elements of this dtype";
  if (!t.data_offset) return "its raw_data is written in more than one field: compared by dtype and shape only";
  const Encoding& e = type->encoding;
  if (t.elements % e.block) return "its elements do not fill whole bytes: compared by dtype and shape only";
  if (t.elements / e.block * e.block_bytes != t.bytes) return "its raw_data is not the size of its elements";
  out.position = *t.data_offset;
  return {};
}

}  // namespace

void collect_onnx(const OnnxSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first) {
  for (const OnnxTensor& init : s.initializers) {
    if (!first(init.name)) continue;
    const OnnxType* type = onnx_type(init.dtype);
    SideTensor t;
    t.info.name = init.name;
    t.info.dtype = init.dtype;
    t.info.shape = init.shape;
    t.info.parameters = init.elements;
    t.info.bytes = init.bytes;
    t.info.file = file;
    t.info.header_offset = init.offset;
    if (type) {
      t.encoding = type->encoding;
      t.common = type->common;
    }
    t.format = Format::onnx;
    t.elements = init.elements;
    t.values_unread = place(init, type, t);
    out.tensors.push_back(std::move(t));
  }
}

}  // namespace tensorgate::detail::diff
