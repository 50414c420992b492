#pragma once
// The header text the canonical writer produces (STC2): compact JSON, keys in the order dtype,
// shape, data_offsets, raw UTF-8, with the escapes of common/json_escape.hpp.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/json_escape.hpp"
#include "tensorgate/safetensors/dtype.hpp"

namespace tensorgate::detail {

// `"name":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}`
void append_tensor_entry(std::string& out, std::string_view name, Dtype dtype,
                         std::span<const std::uint64_t> shape, std::uint64_t begin,
                         std::uint64_t end);

// Spaces after a header text of `length` bytes until the length is a multiple of 8 (STC4).
inline std::size_t canonical_padding(std::size_t length) { return (8 - length % 8) % 8; }

}  // namespace tensorgate::detail
