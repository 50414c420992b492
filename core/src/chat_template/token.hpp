#pragma once
// What the Jinja lexer hands the CT analysis: the tokens inside {{ }} and {% %}, and where the
// tags begin and end. Data, comments and raw blocks are output text, never tokens.
#include <cstdint>
#include <string_view>

namespace tensorgate::detail::ct {

// Bytes of a name's text (or a string's decoded value) a token carries; lengths count it whole.
inline constexpr std::size_t kKeep = 48;

enum class TokenKind : std::uint8_t { name, string, number, op };

struct Token {
  TokenKind kind = TokenKind::op;
  std::uint64_t offset = 0;  // its first byte, counted from the template's first byte
  // name: its first kKeep bytes; string: the first kKeep bytes of its value with the escapes
  // undone (UTF-8); op: the operator ("(", "~", "**", ...).
  std::string_view text;
  std::uint64_t length = 0;  // name: bytes; string: bytes of the decoded value (UTF-8)
  bool dunder = false;       // the name or decoded value holds "__"
  bool first_underscore = false, last_underscore = false;  // strings: the decoded value's ends
  bool format_access = false;  // strings: a str.format field reads an attribute or item (string_facts.hpp)
  bool internal_name = false;  // strings: a dotted part names an interpreter internal (internal_names.hpp)
  bool unit = false;           // numbers: the integer 1 (a slice step that keeps every character)

  bool whole() const { return length == text.size(); }
  bool is_op(std::string_view o) const { return kind == TokenKind::op && text == o; }
  bool is_name(std::string_view n) const { return kind == TokenKind::name && text == n && whole(); }
};

class TokenSink {
 public:
  virtual ~TokenSink() = default;
  virtual void tag_begin(bool block, std::uint64_t at) = 0;  // {{ (block false) or {%
  virtual void tag_end(std::uint64_t at) = 0;
  virtual void token(const Token& t) = 0;
  // The template is not valid Jinja here (the lexer goes on: see lexer.hpp).
  virtual void lex_error(std::uint64_t at, std::string_view what) = 0;
};

}  // namespace tensorgate::detail::ct
