// A CTranslate2 model.bin's side: its variables as the validator's summary lists them, each with
// the file offset of its data, which is one run of bytes: every value can be read. Its aliases
// are other names of variables already listed, not tensors of their own.
#include <algorithm>
#include <array>
#include <functional>

#include "side.hpp"
#include "tensorgate/ctranslate2.hpp"

namespace tensorgate::detail::diff {
namespace {

// types.h's DataType by the summary's name: how the diff reads its elements, and the name the
// safetensors table gives the same type (a CTranslate2 float16 beside a safetensors F16 is no
// dtype change).
struct CTranslate2Type {
  std::string_view name;
  std::string_view common;
  Encoding encoding;
};

constexpr std::array<CTranslate2Type, 6> kTypes{{
    {"float32", "F32", Encoding{ElementKind::f32, 1, 4}},
    {"int8", "I8", Encoding{ElementKind::i8, 1, 1}},
    {"int16", "I16", Encoding{ElementKind::i16, 1, 2}},
    {"int32", "I32", Encoding{ElementKind::i32, 1, 4}},
    {"float16", "F16", Encoding{ElementKind::f16, 1, 2}},
    {"bfloat16", "BF16", Encoding{ElementKind::bf16, 1, 2}},
}};

const CTranslate2Type* ctranslate2_type(std::string_view name) {
  const auto it = std::find_if(kTypes.begin(), kTypes.end(), [&](const CTranslate2Type& t) { return t.name == name; });
  return it == kTypes.end() ? nullptr : &*it;
}

}  // namespace

void collect_ctranslate2(const CTranslate2Summary& s, std::size_t file, Side& out,
                         const std::function<bool(std::string_view)>& first) {
  for (const CTranslate2Variable& v : s.variables) {
    if (!first(v.name)) continue;
    const CTranslate2Type* type = ctranslate2_type(v.dtype);
    std::uint64_t elements = 1;
    for (const std::uint64_t d : v.shape) elements *= d;  // exact: CTR.variable checked the product
    SideTensor t;
    t.info.name = v.name;
    t.info.dtype = v.dtype;
    t.info.shape = v.shape;
    t.info.parameters = elements;
    t.info.bytes = v.bytes;
    t.info.file = file;
    t.format = Format::ctranslate2;
    t.elements = elements;
    if (type) {
      t.encoding = type->encoding;
      t.common = type->common;
      t.position = v.offset;
    } else {
      t.values_unread = "the diff reads no elements of this dtype";
    }
    out.tensors.push_back(std::move(t));
  }
}

}  // namespace tensorgate::detail::diff
