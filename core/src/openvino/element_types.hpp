#pragma once
// OpenVINO's element types (src/core/src/type/element_type.cpp: the names its serializer writes
// in <data element_type>) with their bit widths; the legacy precision names of IR v10's ports.
#include <cstdint>
#include <optional>
#include <string_view>

namespace tensorgate::detail::openvino {

struct ElementType {
  std::string_view name;
  std::uint32_t bits;  // 0: no fixed width (dynamic, undefined, string)
};

// The type named `name`, or nothing when OpenVINO knows no such type.
std::optional<ElementType> element_type(std::string_view name);

// Bytes of `elements` elements of `bits` each, packed types rounded up to a whole byte (as
// OpenVINO sizes a Constant's buffer); nothing when it overflows.
std::optional<std::uint64_t> packed_bytes(std::uint64_t elements, std::uint32_t bits);

}  // namespace tensorgate::detail::openvino
