#pragma once
// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing above U+10FFFF.
#include <cstddef>
#include <string_view>

namespace tensorgate {

// Length of the valid UTF-8 sequence that starts at s[i], or 0 when none does.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

bool is_valid_utf8(std::string_view s);

// The length of the longest prefix of `s` of at most `max` bytes that does not end inside a
// UTF-8 sequence (for cutting untrusted text).
std::size_t utf8_prefix(std::string_view s, std::size_t max);

}  // namespace tensorgate
