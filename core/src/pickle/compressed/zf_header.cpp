#include "pickle/compressed/zf_header.hpp"

#include "common/saturating.hpp"

namespace tensorgate::detail::pickle {
namespace {

bool py_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::uint64_t> zf_length(std::string_view s) {
  while (!s.empty() && py_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && py_space(s.back())) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  bool prefixed = false;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    prefixed = true;  // int() allows one underscore right after the prefix
  }
  if (prefixed && !s.empty() && s.front() == '_') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  bool after_digit = false;
  for (const char c : s) {
    if (c == '_') {
      if (!after_digit) return std::nullopt;  // no two in a row, none first
      after_digit = false;
      continue;
    }
    const int d = hex_digit(c);
    if (d < 0) return std::nullopt;
    v = saturating_add(saturating_mul(v, 16), static_cast<std::uint64_t>(d));
    after_digit = true;
  }
  if (!after_digit) return std::nullopt;  // none last
  return v;
}

}  // namespace tensorgate::detail::pickle
