#pragma once
// CTranslate2's element types: the DataType enum of include/ctranslate2/types.h, whose order is
// the id model.bin stores from version 4 (the writer's _dtype_to_type_id in
// python/ctranslate2/specs/model_spec.py lists the same names in the same order); before version
// 4 the file stores an item size, which the loader maps 4 -> float32, 2 -> int16, 1 -> int8.
#include <cstdint>
#include <optional>
#include <string_view>

namespace tensorgate::detail::ctranslate2 {

struct DtypeInfo {
  std::string_view name;
  std::uint32_t size;  // bytes of one element
};

inline constexpr DtypeInfo kDtypes[] = {
    {"float32", 4}, {"int8", 1}, {"int16", 2}, {"int32", 4}, {"float16", 2}, {"bfloat16", 2},
};

// A version 4+ type id, or none when CTranslate2 defines no such type.
inline std::optional<DtypeInfo> dtype_of_id(std::uint8_t id) {
  if (id >= std::size(kDtypes)) return std::nullopt;
  return kDtypes[id];
}

// A version 1-3 item size, as the loader's get_dtype_from_item_size reads it.
inline std::optional<DtypeInfo> dtype_of_item_size(std::uint8_t size) {
  switch (size) {
    case 4: return kDtypes[0];
    case 2: return kDtypes[2];
    case 1: return kDtypes[1];
    default: return std::nullopt;
  }
}

}  // namespace tensorgate::detail::ctranslate2
