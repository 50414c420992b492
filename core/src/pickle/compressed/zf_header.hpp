#pragma once
// The length field of joblib's old ZF header, read as joblib reads it: int(field, 16) over
// the 19 bytes after "ZF" (hex_str(len) padded with spaces: "0x1a2b" and 13 spaces).
#include <cstdint>
#include <optional>
#include <string_view>

namespace tensorgate::detail::pickle {

// Python's int(text, 16): surrounding whitespace, an optional '+', an optional 0x, hex digits
// with single underscores between them. A negative length (which zlib refuses) is none; a
// length past 2^64 saturates.
std::optional<std::uint64_t> zf_length(std::string_view field);

}  // namespace tensorgate::detail::pickle
