#pragma once
// Snappy's raw format (https://github.com/google/snappy/blob/main/format_description.txt), which
// TensorFlow's table builder compresses a tensor bundle index's blocks with by default: a varint
// length, then literals and back-references. Decoded whole into a buffer of at most `max_out`
// bytes; every length and offset is checked against what has been written and what remains.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::detail::savedmodel {

// The bytes, or nullopt with `error` saying why they are not snappy (or larger than max_out).
std::optional<std::string> snappy_uncompress(std::string_view in, std::uint64_t max_out, std::string& error);

}  // namespace tensorgate::detail::savedmodel
