#include "pickle/text_args.hpp"

#include "common/printable.hpp"

namespace tensorgate::detail::pickle {
namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view strip(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

}  // namespace

bool is_int_literal(std::string_view s, bool long_form) {
  s = strip(s);
  if (long_form && !s.empty() && s.back() == 'L') s.remove_suffix(1);
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s.empty()) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return false;
  return s[0] >= '0' && s[0] <= '9';
}

std::optional<std::uint64_t> decimal_value(std::string_view s) {
  s = strip(s);
  if (!s.empty() && s.back() == 'L') s.remove_suffix(1);
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s.size() > 19) return std::nullopt;  // 19 digits always fit
  std::uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

bool is_float_literal(std::string_view s) {
  s = strip(s);
  if (s.empty()) return false;
  for (const char c : s) {
    const char l = static_cast<char>(c | 0x20);
    if (!((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || l == 'e' || l == 'i' || l == 'n' ||
          l == 'f' || l == 'a' || l == 't' || l == 'y'))
      return false;
  }
  return true;
}

std::optional<std::string> decode_string_escapes(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return std::nullopt;  // "Trailing \ in string"
    const char c = s[i];
    switch (c) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'v': out += '\v'; break;
      case 'a': out += '\a'; break;
      case 'x': {
        const int hi = i + 1 < s.size() ? hex_digit(s[i + 1]) : -1;
        const int lo = i + 2 < s.size() ? hex_digit(s[i + 2]) : -1;
        if (hi < 0 || lo < 0) return std::nullopt;  // "invalid \x escape"
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0';
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k) v = v * 8 + (s[++i] - '0');
          out += static_cast<char>(v & 0xff);
        } else {
          out += '\\';  // an unknown escape stays as it is
          out += c;
        }
    }
  }
  return out;
}

std::optional<std::string> decode_raw_unicode_escape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] != '\\') {
      append_utf8(out, static_cast<unsigned char>(s[i++]));  // Latin-1
      continue;
    }
    // A run of backslashes: with an odd count, the last one escapes a following u or U.
    std::size_t run = 0;
    while (i + run < s.size() && s[i + run] == '\\') ++run;
    const std::size_t after = i + run;
    const bool escape = run % 2 == 1 && after < s.size() && (s[after] == 'u' || s[after] == 'U');
    for (std::size_t k = 0; k < (escape ? run - 1 : run); ++k) out += '\\';
    i = after;
    if (!escape) continue;
    const std::size_t digits = s[i] == 'u' ? 4 : 8;
    std::uint32_t cp = 0;
    for (std::size_t k = 1; k <= digits; ++k) {
      const int d = i + k < s.size() ? hex_digit(s[i + k]) : -1;
      if (d < 0) return std::nullopt;  // "truncated \uXXXX escape"
      cp = cp * 16 + static_cast<std::uint32_t>(d);
    }
    if (cp > 0x10ffff) return std::nullopt;
    append_utf8(out, cp);
    i += digits + 1;
  }
  return out;
}

std::string quoted_line(std::string_view kept, std::uint64_t length) {
  std::string q = quoted(kept);
  if (length > kept.size()) q += " (" + std::to_string(length) + " bytes)";
  return q;
}

}  // namespace tensorgate::detail::pickle
