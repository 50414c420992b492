// A TFLite model's side: its constant tensors (those with a buffer of data) as the validator's
// summary lists them, each read where its buffer's bytes are (inline in the flatbuffer, or past it
// in a model over 2 GB). Tensors without data (activations, inputs) are no weights to compare.
#include <algorithm>
#include <array>
#include <functional>

#include "side.hpp"
#include "tensorgate/tflite.hpp"

namespace tensorgate::detail::diff {
namespace {

// TensorType by name: how the diff reads its elements, and the safetensors table's name of the
// same type (a TFLite FLOAT32 beside a safetensors F32 is no dtype change).
struct TfliteType {
  std::string_view name;
  std::string_view common;
  Encoding encoding;
  bool readable = true;
};

constexpr Encoding whole(ElementKind k, std::uint32_t bytes) { return Encoding{k, 1, bytes}; }

constexpr std::array<TfliteType, 18> kTypes{{
    {"FLOAT32", "F32", whole(ElementKind::f32, 4)},
    {"FLOAT16", "F16", whole(ElementKind::f16, 2)},
    {"FLOAT64", "F64", whole(ElementKind::f64, 8)},
    {"INT8", "I8", whole(ElementKind::i8, 1)},
    {"INT16", "I16", whole(ElementKind::i16, 2)},
    {"INT32", "I32", whole(ElementKind::i32, 4)},
    {"INT64", "I64", whole(ElementKind::i64, 8)},
    {"UINT8", "U8", whole(ElementKind::u8, 1)},
    {"UINT16", "U16", whole(ElementKind::u16, 2)},
    {"UINT32", "U32", whole(ElementKind::u32, 4)},
    {"UINT64", "U64", whole(ElementKind::u64, 8)},
    {"BOOL", "BOOL", whole(ElementKind::boolean, 1)},
    {"COMPLEX64", "C64", whole(ElementKind::opaque, 8)},
    {"COMPLEX128", "", whole(ElementKind::opaque, 16)},
    {"INT4", "", Encoding{ElementKind::opaque, 2, 1}},  // packed two to a byte
    {"STRING", "", Encoding{}, false},
    {"RESOURCE", "", Encoding{}, false},
    {"VARIANT", "", Encoding{}, false},
}};

const TfliteType* tflite_type(std::string_view name) {
  const auto it = std::find_if(kTypes.begin(), kTypes.end(), [&](const TfliteType& t) { return t.name == name; });
  return it == kTypes.end() ? nullptr : &*it;
}

}  // namespace

void collect_tflite(const TfliteSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first) {
  for (const TfliteTensor& t : s.tensors) {
    if (t.bytes == 0 || !t.data_offset || !first(t.name)) continue;
    const TfliteType* type = tflite_type(t.type);
    SideTensor side;
    side.info.name = t.name;
    side.info.dtype = t.type;
    std::uint64_t elements = 1;
    for (const std::int64_t d : t.shape) {
      side.info.shape.push_back(d < 0 ? 0 : static_cast<std::uint64_t>(d));
      elements *= d < 0 ? 0 : static_cast<std::uint64_t>(d);
    }
    side.info.parameters = elements;
    side.info.bytes = t.bytes;
    side.info.file = file;
    side.info.header_offset = t.offset;
    if (type) {
      side.encoding = type->encoding;
      side.common = type->common;
    }
    side.format = Format::tflite;
    side.elements = elements;
    if (!type || !type->readable) side.values_unread = "the diff reads no elements of this dtype";
    else if (elements % type->encoding.block) side.values_unread = "its elements do not fill whole bytes: compared by dtype and shape only";
    else if (elements / type->encoding.block * type->encoding.block_bytes != t.bytes)
      side.values_unread = "its buffer is not the size of its elements (a sparse tensor): compared by dtype and shape only";
    else side.position = *t.data_offset;
    out.tensors.push_back(std::move(side));
  }
}

}  // namespace tensorgate::detail::diff
