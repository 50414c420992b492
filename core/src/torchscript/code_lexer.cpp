// The byte loop of a TorchScript code file: UTF-8, then the lexer's states (TS.code-lex).
// TorchScript's lexer (torch/csrc/jit/frontend/lexer.h) reads ASCII identifiers, numbers,
// string literals with Python's quotes, prefixes and escapes, comments and Python's operators;
// anything else outside a string or a comment is refused.
#include "torchscript/code_lexer.hpp"

#include "common/printable.hpp"

namespace tensorgate::detail::torchscript {
namespace {

bool alpha(unsigned char b) { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_'; }
bool digit(unsigned char b) { return b >= '0' && b <= '9'; }

// Python's string prefixes (r, u, b, f and their pairs, either case).
bool string_prefix(std::string_view s) {
  if (s.empty() || s.size() > 2) return false;
  bool r = false, other = false;
  for (const char c : s) {
    const char l = static_cast<char>(c | 0x20);
    if (l == 'r' && !r) r = true;
    else if ((l == 'u' || l == 'b' || l == 'f') && !other) other = true;
    else return false;
  }
  return !(s.size() == 2 && (s[0] | 0x20) == 'u');  // "ur" is no prefix in Python 3
}

}  // namespace

CodeScanner::CodeScanner(const TorchScriptLimits& limits, CodeSite site) : limits_(limits), site_(std::move(site)) {}

void CodeScanner::feed(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (state_ == St::failed) {
      pos_ += n - i;
      return;
    }
    const unsigned char b = p[i];
    if (!utf8_ok(b)) fail("bytes that are not UTF-8");
    else if (b == 0) fail("a NUL byte");
    else lex(b);
    ++pos_;
  }
}

// RFC 3629 (Unicode's table 3-7): no overlong forms, no surrogates, nothing past U+10FFFF.
bool CodeScanner::utf8_ok(unsigned char b) {
  if (utf8_left_ > 0) {
    if (b < utf8_lo_ || b > utf8_hi_) return false;
    --utf8_left_;
    utf8_lo_ = 0x80;
    utf8_hi_ = 0xBF;
    return true;
  }
  if (b < 0x80) return true;
  if (b < 0xC2 || b > 0xF4) return false;
  utf8_left_ = b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
  if (b == 0xE0) utf8_lo_ = 0xA0;
  if (b == 0xED) utf8_hi_ = 0x9F;
  if (b == 0xF0) utf8_lo_ = 0x90;
  if (b == 0xF4) utf8_hi_ = 0x8F;
  return true;
}

void CodeScanner::lex(unsigned char b) {
  const bool lf_after_cr = cr_ && b == '\n';
  cr_ = b == '\r';
  switch (state_) {
    case St::between: return lf_after_cr ? void() : lex_between(b);
    case St::ident:
    case St::number: return lex_word(b);
    case St::string_open: return lex_string_open(b, lf_after_cr);
    case St::string: return lf_after_cr ? void() : lex_string(b);
    case St::comment:
      if (b == '\n' || b == '\r') {
        state_ = St::between;
        if (!lf_after_cr) newline();
      }
      return;
    case St::backslash:
      if (b == '\n' || b == '\r') {
        ++line_;  // a line continuation: no line end for the statement
        state_ = St::between;
        return;
      }
      return fail("a backslash outside a string that does not end its line");
    case St::bang:
      if (b != '=') return fail("'!' not followed by '='");
      state_ = St::between;
      return token(Tok::other);
    case St::failed: return;
  }
}

// An identifier (or a string's prefix) or a number, up to the byte that ends it.
void CodeScanner::lex_word(unsigned char b) {
  if (state_ == St::ident) {
    if (alpha(b) || digit(b)) {
      if (ident_.size() < limits_.max_name_bytes) ident_ += static_cast<char>(b);
      return;
    }
    if ((b == '"' || b == '\'') && string_prefix(ident_)) {
      ident_.clear();
      quote_ = static_cast<char>(b);
      quote_run_ = 0;
      state_ = St::string_open;
      return;
    }
    end_ident();
    return lex_between(b);
  }
  if (alpha(b) || digit(b) || b == '.' || ((b == '+' || b == '-') && (prev_ == 'e' || prev_ == 'E') && !number_hex_)) {
    if (b == 'x' || b == 'X') number_hex_ = true;
    prev_ = b;
    return;
  }
  state_ = St::between;
  token(Tok::other);
  lex_between(b);
}

// After the opening quote: two quotes are the empty string, three open a triple-quoted one.
void CodeScanner::lex_string_open(unsigned char b, bool lf_after_cr) {
  if (b == static_cast<unsigned char>(quote_)) {
    if (quote_run_ == 1) {
      quote_run_ = 0;
      triple_ = true;
      state_ = St::string;
      return;
    }
    quote_run_ = 1;
    return;
  }
  if (quote_run_ == 1) {  // the empty string ended
    quote_run_ = 0;
    state_ = St::between;
    token(Tok::other);
    if (!lf_after_cr) lex_between(b);
    return;
  }
  triple_ = false;
  state_ = St::string;
  lex_string(b);
}

void CodeScanner::lex_between(unsigned char b) {
  if (alpha(b)) {
    ident_.assign(1, static_cast<char>(b));
    state_ = St::ident;
    return;
  }
  if (digit(b)) {
    number_hex_ = false;
    prev_ = b;
    state_ = St::number;
    return;
  }
  switch (b) {
    case ' ': case '\t': case '\f': return;
    case '\n': case '\r': return newline();
    case '#': state_ = St::comment; return;
    case '\\': state_ = St::backslash; return;
    case '"': case '\'':
      quote_ = static_cast<char>(b);
      quote_run_ = 0;
      state_ = St::string_open;
      return;
    case '.': return token(Tok::dot);
    case '(': case '[': case '{': return open(static_cast<char>(b));
    case ')': case ']': case '}': return close(static_cast<char>(b));
    case '!': state_ = St::bang; return;
    case ';': return token(Tok::end_line);
    case '+': case '-': case '*': case '/': case '%': case '&': case '|': case '^': case '~':
    case '<': case '>': case '=': case ',': case ':': case '@':
      return token(Tok::other);
    default: break;
  }
  fail(b >= 0x80 ? std::string("a non-ASCII character outside a string or a comment")
                 : "the character " + quoted(std::string_view(reinterpret_cast<const char*>(&b), 1)) +
                       ", which starts no token");
}

void CodeScanner::lex_string(unsigned char b) {
  if (escape_) {
    escape_ = false;
    if (b == '\n' || b == '\r') ++line_;
    return;
  }
  if (b == '\\') {
    escape_ = true;
    quote_run_ = 0;
    return;
  }
  if (b == static_cast<unsigned char>(quote_)) {
    if (triple_ && ++quote_run_ < 3) return;
    quote_run_ = 0;
    state_ = St::between;
    return token(Tok::other);
  }
  quote_run_ = 0;
  if (b == '\n' || b == '\r') {
    if (!triple_) return fail("a string literal that does not end on its line");
    ++line_;
  }
}

void CodeScanner::end_ident() {
  state_ = St::between;
  token(Tok::name, ident_);
}

void CodeScanner::newline() {
  ++line_;
  if (brackets_.empty()) token(Tok::end_line);
}

void CodeScanner::open(char c) {
  if (brackets_.size() >= limits_.max_bracket_depth)
    return fail("brackets nested deeper than " + std::to_string(limits_.max_bracket_depth) +
                " (Limits::torchscript.max_bracket_depth)");
  brackets_ += c;
  token(c == '(' ? Tok::open_paren : Tok::open_other);
}

void CodeScanner::close(char c) {
  const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
  if (brackets_.empty() || brackets_.back() != want)
    return fail("a closing " + quoted(std::string_view(&c, 1)) + " that closes no bracket of its kind");
  brackets_.pop_back();
  token(c == ')' ? Tok::close_paren : Tok::close_other);
}

void CodeScanner::fail(std::string what) {
  if (state_ == St::failed) return;
  state_ = St::failed;
  site_.findings->add(Rule::ts_code_lex, "code file " + quoted(site_.file, 120) + ", line " + std::to_string(line_) +
                                             " (byte " + std::to_string(pos_) + " of the file): " + what +
                                             ": TorchScript's lexer refuses it",
                      offset());
}

void CodeScanner::finish() {
  if (state_ == St::failed) return;
  if (utf8_left_ > 0) return fail("a UTF-8 sequence cut by the end of the file");
  if (state_ == St::string || state_ == St::string_open) {
    if (state_ == St::string_open && quote_run_ == 1) {
      state_ = St::between;  // the file ends with an empty string
    } else {
      return fail("a string literal that does not end before the file does");
    }
  }
  if (state_ == St::backslash) return fail("a backslash at the end of the file");
  if (state_ == St::bang) return fail("'!' at the end of the file");
  if (state_ == St::ident) end_ident();
  if (state_ == St::number) {
    state_ = St::between;
    token(Tok::other);
  }
  if (!brackets_.empty())
    return fail(std::to_string(brackets_.size()) + " bracket(s) still open at the end of the file");
  token(Tok::end_line);
}

}  // namespace tensorgate::detail::torchscript
