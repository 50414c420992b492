#pragma once
// Character classes of Jinja's lexer, over code points.
#include <cstdint>
#include <string>

namespace tensorgate::detail::ct {

// No code point: the end of the template, passed where a state needs "no next character".
inline constexpr char32_t kEnd = 0xFFFFFFFF;

// Python's str.isspace(), which Jinja's \s matches: ASCII, the C1 and Unicode spaces.
constexpr bool is_space(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
         c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

// Jinja's names are Unicode identifiers; any non-space code point above ASCII is taken as one
// (Jinja refuses the others, which changes nothing the analysis looks at).
constexpr bool is_name_start(char32_t c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= 0x80 && c != kEnd && !is_space(c));
}
constexpr bool is_name_char(char32_t c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

constexpr int digit_value(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return 99;
}
constexpr bool is_digit(char32_t c, unsigned radix) { return digit_value(c) < static_cast<int>(radix); }

// Appends c as UTF-8 (a surrogate or an out-of-range value as U+FFFD); returns the byte count.
inline unsigned append_utf8(std::string& out, char32_t c) {
  if (c >= 0xD800 && (c <= 0xDFFF || c > 0x10FFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out += static_cast<char>(c);
    return 1;
  }
  if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
    return 3;
  }
  out += static_cast<char>(0xF0 | (c >> 18));
  out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
  out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  out += static_cast<char>(0x80 | (c & 0x3F));
  return 4;
}
constexpr unsigned utf8_length(char32_t c) {
  if (c >= 0xD800 && (c <= 0xDFFF || c > 0x10FFFF)) return 3;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

// "'x'" for printable ASCII, "U+0000" otherwise: for CT.lex messages.
std::string describe(char32_t c);

}  // namespace tensorgate::detail::ct
