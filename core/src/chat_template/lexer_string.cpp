// Lexer: string literals. The token ends at the first quote not escaped by a backslash (Jinja's
// string_re, across lines); its value is decoded as Jinja decodes it, with Python's
// unicode-escape after normalizing newlines: \\ \' \" \a \b \f \n \r \t \v, \ooo (1 to 3 octal
// digits), \xhh, \uhhhh, \Uhhhhhhhh, \N{name}, a backslash before a newline dropped, and any
// other escape kept with its backslash ("\_" is a backslash and an underscore).
#include "chat_template/chars.hpp"
#include "chat_template/lexer.hpp"

namespace tensorgate::detail::ct {
namespace {

constexpr std::size_t kEscName = 64;  // longer than any Unicode character name

char32_t simple_escape(char32_t c) {
  switch (c) {
    case '\\': return '\\';
    case '\'': return '\'';
    case '"': return '"';
    case 'a': return 0x07;
    case 'b': return 0x08;
    case 'f': return 0x0c;
    case 'n': return 0x0a;
    case 'r': return 0x0d;
    case 't': return 0x09;
    case 'v': return 0x0b;
    default: return kEnd;
  }
}

}  // namespace

void Lexer::start_string(char32_t quote, std::uint64_t at) {
  st_ = St::string;
  quote_ = quote;
  tok_at_ = at;
  text_.clear();
  length_ = 0;
  dunder_ = prev_underscore_ = first_underscore_ = false;
  esc_ = Esc::none;
  facts_.reset();
}

void Lexer::decoded(char32_t c) {
  const bool underscore = c == '_';
  if (length_ == 0) first_underscore_ = underscore;
  dunder_ = dunder_ || (underscore && prev_underscore_);
  prev_underscore_ = underscore;
  facts_.add(c);
  const unsigned n = utf8_length(c);
  if (text_.size() == length_ && text_.size() + n <= kKeep) append_utf8(text_, c);
  length_ += n;
}

// The ASCII run of a string's plain characters, as string_cp would take them one by one.
const char* Lexer::fast_string(const char* p, const char* end) {
  const char* q = p;
  while (q < end) {
    const auto b = static_cast<unsigned char>(*q);
    if (b >= 0x80 || b == '\\' || b == quote_) break;
    decoded(b);
    ++q;
  }
  pos_ += static_cast<std::uint64_t>(q - p);
  return q;
}

void Lexer::string_cp(char32_t c, std::uint64_t at) {
  if (c == kEnd) {
    if (esc_ == Esc::octal) decoded(esc_value_);
    sink_.lex_error(tok_at_, "a string that is never closed");
    end_string();
    return;
  }
  if (esc_ != Esc::none) return escape_cp(c, at);
  if (c == quote_) return end_string();
  if (c == '\\') {
    esc_ = Esc::start;
    esc_at_ = at;
    return;
  }
  decoded(c);
}

// The character after a backslash: what it means, or which escape it opens.
void Lexer::escape_begin(char32_t c) {
  esc_ = Esc::none;
  if (c == '\n') return;  // a line continuation
  if (c == '\r') {        // so is \r, and \r\n (one newline once normalized)
    esc_ = Esc::cr;
    return;
  }
  if (c >= '0' && c <= '7') {
    esc_ = Esc::octal;
    esc_value_ = c - '0';
    esc_digits_ = 1;
    return;
  }
  if (c == 'x' || c == 'u' || c == 'U') {
    esc_ = Esc::hex;
    esc_need_ = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    esc_value_ = 0;
    esc_digits_ = 0;
    return;
  }
  if (c == 'N') {
    esc_ = Esc::named_open;
    return;
  }
  if (const char32_t s = simple_escape(c); s != kEnd) return decoded(s);
  decoded('\\');
  // Past ASCII, Jinja's backslashreplace makes it \ x hex digits: no underscore either way.
  decoded(c >= 0x80 ? U'x' : c);
}

// Inside \N{...}: the name, upper-cased and bounded, up to its brace.
void Lexer::escape_name_cp(char32_t c) {
  if (c == '}') {
    esc_ = Esc::none;
    // Python looks names up without regard to case. Only U+005F matters here; any other
    // name is some other character (or unknown, which Jinja refuses).
    if (esc_name_.empty()) sink_.lex_error(esc_at_, "a malformed \\N{...} escape");
    else decoded(esc_name_ == "LOW LINE" ? U'_' : U'\uFFFD');
    return;
  }
  if (c == quote_) {
    esc_ = Esc::none;
    sink_.lex_error(esc_at_, "a malformed \\N{...} escape");
    return end_string();
  }
  if (c == '\\') esc_ = Esc::named_esc;
  if (esc_name_.size() < kEscName)
    esc_name_ += c < 0x80 && c != '\\' ? static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c) : '?';
}

void Lexer::escape_cp(char32_t c, std::uint64_t at) {
  switch (esc_) {
    case Esc::start: return escape_begin(c);
    case Esc::cr:
      esc_ = Esc::none;
      if (c != '\n') string_cp(c, at);
      return;
    case Esc::octal:
      if (c >= '0' && c <= '7') {
        esc_value_ = esc_value_ * 8 + (c - '0');
        if (++esc_digits_ == 3) {
          esc_ = Esc::none;
          decoded(esc_value_);
        }
        return;
      }
      esc_ = Esc::none;
      decoded(esc_value_);
      return string_cp(c, at);
    case Esc::hex:
      if (is_digit(c, 16)) {
        esc_value_ = esc_value_ * 16 + static_cast<std::uint32_t>(digit_value(c));
        if (++esc_digits_ < esc_need_) return;
        esc_ = Esc::none;
        if (esc_value_ > 0x10FFFF) sink_.lex_error(esc_at_, "an escape past U+10FFFF");
        else decoded(esc_value_);
        return;
      }
      esc_ = Esc::none;
      sink_.lex_error(esc_at_, "a truncated \\x, \\u or \\U escape");
      return string_cp(c, at);
    case Esc::named_open:
      esc_ = Esc::none;
      if (c == '{') {
        esc_ = Esc::named;
        esc_name_.clear();
        return;
      }
      sink_.lex_error(esc_at_, "a malformed \\N{...} escape");
      return string_cp(c, at);
    case Esc::named: return escape_name_cp(c);
    case Esc::named_esc:
      esc_ = Esc::named;
      if (esc_name_.size() < kEscName) esc_name_ += '?';
      return;
    case Esc::none: return;
  }
}

void Lexer::end_string() {
  st_ = St::tag;
  Token t;
  t.kind = TokenKind::string;
  t.offset = tok_at_;
  t.text = text_;
  t.length = length_;
  t.dunder = dunder_;
  t.first_underscore = first_underscore_;
  t.last_underscore = prev_underscore_;
  facts_.finish();
  t.format_access = facts_.format_access();
  t.internal_name = facts_.internal_name();
  sink_.token(t);
}

}  // namespace tensorgate::detail::ct
