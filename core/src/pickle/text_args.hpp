#pragma once
// The text arguments of protocol 0 opcodes, parsed as CPython parses them: integers (INT,
// LONG, GET, PUT), floats, STRING's escapes (as PyBytes_DecodeEscape) and UNICODE's
// raw-unicode-escape (\uXXXX, \UXXXXXXXX, every other byte Latin-1), decoded to UTF-8.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::detail::pickle {

// int() of the line: optional whitespace and sign, then digits (hex, octal, binary prefixes
// and underscores allowed), LONG's trailing L.
bool is_int_literal(std::string_view s, bool long_form);
// A plain decimal that fits 64 bits ("+" allowed, no "-"), or nothing.
std::optional<std::uint64_t> decimal_value(std::string_view s);
bool is_float_literal(std::string_view s);

std::optional<std::string> decode_string_escapes(std::string_view s);
std::optional<std::string> decode_raw_unicode_escape(std::string_view s);

// The line for a message: quoted, with its length when it was too long to keep.
std::string quoted_line(std::string_view kept, std::uint64_t length);

}  // namespace tensorgate::detail::pickle
