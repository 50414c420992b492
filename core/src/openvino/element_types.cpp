#include "openvino/element_types.hpp"

namespace tensorgate::detail::openvino {
namespace {

// ov::element::Type_t's names and bit widths. "string" holds packed strings of any length, and
// "dynamic" and "undefined" are no storage type: their Consts cannot be sized.
constexpr ElementType kTypes[] = {
    {"boolean", 8}, {"bf16", 16},  {"f16", 16},    {"f32", 32},    {"f64", 64},    {"i4", 4},       {"i8", 8},
    {"i16", 16},    {"i32", 32},   {"i64", 64},    {"u1", 1},      {"u2", 2},      {"u3", 3},       {"u4", 4},
    {"u6", 6},      {"u8", 8},     {"u16", 16},    {"u32", 32},    {"u64", 64},    {"nf4", 4},      {"f8e4m3", 8},
    {"f8e5m2", 8},  {"f4e2m1", 4}, {"f8e8m0", 8},  {"string", 0},  {"dynamic", 0}, {"undefined", 0},
};

}  // namespace

std::optional<ElementType> element_type(std::string_view name) {
  for (const ElementType& t : kTypes)
    if (t.name == name) return t;
  return std::nullopt;
}

std::optional<std::uint64_t> packed_bytes(std::uint64_t elements, std::uint32_t bits) {
  if (bits == 0) return std::nullopt;
  if (elements > (UINT64_MAX - 7) / bits) return std::nullopt;
  return (elements * bits + 7) / 8;
}

}  // namespace tensorgate::detail::openvino
