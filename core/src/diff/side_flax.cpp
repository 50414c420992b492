// A Flax checkpoint's side: its arrays by dotted path, as the validator's summary lists them.
// An array's buffer is one run of bytes at a known offset (NumPy's C order, little-endian as
// written by every machine flax runs on), so its values are read; a chunked array's are in
// several buffers, and it is compared by dtype and shape only.
#include <algorithm>
#include <array>
#include <functional>

#include "side.hpp"
#include "tensorgate/flax.hpp"

namespace tensorgate::detail::diff {
namespace {

// NumPy's dtype names (and jax's bfloat16, float8s): how the diff reads the elements, and the
// name the safetensors table gives the same type.
struct FlaxType {
  std::string_view name;
  std::string_view common;
  Encoding encoding;
};

constexpr Encoding whole(ElementKind k, std::uint32_t bytes) { return Encoding{k, 1, bytes}; }

constexpr std::array<FlaxType, 20> kTypes{{
    {"float32", "F32", whole(ElementKind::f32, 4)},
    {"float64", "F64", whole(ElementKind::f64, 8)},
    {"float16", "F16", whole(ElementKind::f16, 2)},
    {"bfloat16", "BF16", whole(ElementKind::bf16, 2)},
    {"int8", "I8", whole(ElementKind::i8, 1)},
    {"int16", "I16", whole(ElementKind::i16, 2)},
    {"int32", "I32", whole(ElementKind::i32, 4)},
    {"int64", "I64", whole(ElementKind::i64, 8)},
    {"uint8", "U8", whole(ElementKind::u8, 1)},
    {"uint16", "U16", whole(ElementKind::u16, 2)},
    {"uint32", "U32", whole(ElementKind::u32, 4)},
    {"uint64", "U64", whole(ElementKind::u64, 8)},
    {"bool", "BOOL", whole(ElementKind::boolean, 1)},
    {"complex64", "C64", whole(ElementKind::opaque, 8)},
    {"complex128", "", whole(ElementKind::opaque, 16)},
    {"float8_e4m3fn", "F8_E4M3", whole(ElementKind::opaque, 1)},
    {"float8_e4m3fnuz", "F8_E4M3FNUZ", whole(ElementKind::opaque, 1)},
    {"float8_e5m2", "F8_E5M2", whole(ElementKind::opaque, 1)},
    {"float8_e5m2fnuz", "F8_E5M2FNUZ", whole(ElementKind::opaque, 1)},
    {"float8_e8m0fnu", "F8_E8M0", whole(ElementKind::opaque, 1)},
}};

const FlaxType* flax_type(std::string_view name) {
  const auto it = std::find_if(kTypes.begin(), kTypes.end(), [&](const FlaxType& t) { return t.name == name; });
  return it == kTypes.end() ? nullptr : &*it;
}

std::uint64_t elements_of(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) n *= d;
  return n;
}

}  // namespace

void collect_flax(const FlaxSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first) {
  for (const FlaxArray& a : s.arrays) {
    if (!first(a.path)) continue;
    const FlaxType* type = flax_type(a.dtype);
    SideTensor t;
    t.info.name = a.path;
    t.info.dtype = a.dtype;
    t.info.shape = a.shape;
    t.elements = elements_of(a.shape);
    t.info.parameters = t.elements;
    t.info.bytes = a.bytes;
    t.info.file = file;
    t.info.header_offset = a.offset;
    t.format = Format::flax;
    if (type) {
      t.encoding = type->encoding;
      t.common = type->common;
    }
    if (!type) t.values_unread = "the diff reads no elements of this dtype: compared by dtype and shape only";
    else if (a.chunks) t.values_unread = "its values are in chunks (flax's __msgpack_chunked_array__): compared by dtype and shape only";
    else t.position = a.offset;
    out.tensors.push_back(std::move(t));
  }
}

}  // namespace tensorgate::detail::diff
