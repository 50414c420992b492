// Lexer: the tokens between {{ and }}, {% and %}, in the order of jinja2.lexer's tag rules:
// the end tag first (only while no bracket is open), then whitespace, numbers, names, strings,
// operators. A character that may begin a longer operator or an end tag waits in `pend_`.
#include "chat_template/chars.hpp"
#include "chat_template/lexer.hpp"

namespace tensorgate::detail::ct {
namespace {

// Storage for the one-character operators a Token's text points to.
constexpr std::string_view kSingles = "~.:|,;()[]{}-+%/*=<>";
std::string_view single(char c) { return kSingles.substr(kSingles.find(c), 1); }

}  // namespace

void Lexer::dispatch(char32_t c, std::uint64_t at) {
  switch (st_) {
    case St::pending: pending_cp(c, at); return;
    case St::name: name_cp(c, at); return;
    case St::number: number_cp(c, at); return;
    case St::string: string_cp(c, at); return;
    default: tag_cp(c, at); return;
  }
}

void Lexer::op(std::string_view o, std::uint64_t at) {
  Token t;
  t.kind = TokenKind::op;
  t.offset = at;
  t.text = o;
  t.length = o.size();
  sink_.token(t);
}

void Lexer::tag_cp(char32_t c, std::uint64_t at) {
  if (is_space(c)) return;
  const auto wait = [&](char p) {
    st_ = St::pending;
    pend_ = p;
    pend_at_ = at;
  };
  switch (c) {
    case '-': return balanced() ? wait('-') : op(single('-'), at);
    case '+': return block_ && balanced() ? wait('+') : op(single('+'), at);
    case '}': return !block_ && balanced() ? wait('}') : close_bracket('}', at);
    case '%': return block_ && balanced() ? wait('%') : op(single('%'), at);
    case '/': case '*': case '=': case '!': case '<': case '>': return wait(static_cast<char>(c));
    case '\'': case '"': return start_string(c, at);
    case '(': case '[': case '{': return open_bracket(static_cast<char>(c), at);
    case ')': case ']': return close_bracket(static_cast<char>(c), at);
    case '~': case '.': case ':': case '|': case ',': case ';': return op(single(static_cast<char>(c)), at);
    default: break;
  }
  if (c >= '0' && c <= '9') return start_number(c, at);
  if (is_name_start(c)) return start_name(c, at);
  sink_.lex_error(at, "unexpected char " + describe(c));
}

// The character after a pending one decides: "-}}", "-%}", "+%}", "}}", "%}" end the tag;
// "//", "**", "==", "!=", "<=", ">=" are operators; otherwise the pending char is itself.
void Lexer::pending_cp(char32_t c, std::uint64_t at) {
  const char p = pend_;
  const std::uint64_t pat = pend_at_;
  st_ = St::tag;
  const auto wait = [&](char next) {
    st_ = St::pending;
    pend_ = next;
  };
  const auto two = [&](char second, std::string_view both) {
    if (c != static_cast<char32_t>(second)) return false;
    op(both, pat);
    return true;
  };
  switch (p) {
    case '-':
      if (!block_ && c == '}') return wait('a');  // "-}"
      if (block_ && c == '%') return wait('b');   // "-%"
      op(single('-'), pat);
      break;
    case '+':
      if (c == '%') return wait('c');  // "+%"
      op(single('+'), pat);
      break;
    case 'a':
    case 'b':
    case 'c':
      if (c == '}') return end_tag(at);
      op(single(p == 'c' ? '+' : '-'), pat);
      dispatch(p == 'a' ? '}' : '%', pat + 1);
      break;
    case '}':
      if (c == '}') return end_tag(at);
      close_bracket('}', pat);
      break;
    case '%':
      if (c == '}') return end_tag(at);
      op(single('%'), pat);
      break;
    case '/': if (two('/', "//")) return; op(single('/'), pat); break;
    case '*': if (two('*', "**")) return; op(single('*'), pat); break;
    case '=': if (two('=', "==")) return; op(single('='), pat); break;
    case '<': if (two('=', "<=")) return; op(single('<'), pat); break;
    case '>': if (two('=', ">=")) return; op(single('>'), pat); break;
    case '!':
      if (two('=', "!=")) return;
      sink_.lex_error(pat, "unexpected char '!'");
      break;
    default: break;
  }
  if (c != kEnd) dispatch(c, at);
}

void Lexer::open_bracket(char c, std::uint64_t at) {
  if (overflow_ == 0 && stack_.size() < max_depth_) {
    stack_ += c;
  } else if (overflow_++ == 0) {
    sink_.lex_error(at, "brackets nest deeper than " + std::to_string(max_depth_));
  }
  op(single(c), at);
}

// Jinja refuses a closing bracket that closes nothing or another kind than the innermost; the
// first is skipped here, the second closes the innermost.
void Lexer::close_bracket(char c, std::uint64_t at) {
  const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
  if (overflow_ > 0) {
    --overflow_;
  } else if (stack_.empty()) {
    sink_.lex_error(at, std::string("unexpected '") + c + "'");
    return;
  } else {
    if (stack_.back() != want) sink_.lex_error(at, std::string("unexpected '") + c + "', expected the close of '" + stack_.back() + "'");
    stack_.pop_back();
  }
  op(single(c), at);
}

void Lexer::start_name(char32_t c, std::uint64_t at) {
  st_ = St::name;
  tok_at_ = at;
  text_.clear();
  length_ = 0;
  dunder_ = prev_underscore_ = false;
  name_cp(c, at);
}

void Lexer::name_cp(char32_t c, std::uint64_t at) {
  if (c != kEnd && is_name_char(c)) {
    const unsigned n = utf8_length(c);
    if (text_.size() == length_ && text_.size() + n <= kKeep) append_utf8(text_, c);
    length_ += n;
    const bool underscore = c == '_';
    dunder_ = dunder_ || (underscore && prev_underscore_);
    prev_underscore_ = underscore;
    return;
  }
  end_name();
  if (c != kEnd) dispatch(c, at);
}

// The ASCII run of a name's characters, as name_cp would take them one by one.
const char* Lexer::fast_name(const char* p, const char* end) {
  const char* q = p;
  for (; q < end; ++q) {
    const auto c = static_cast<unsigned char>(*q);
    if (c >= 0x80 || !is_name_char(c)) break;
    if (text_.size() == length_ && text_.size() < kKeep) text_ += static_cast<char>(c);
    ++length_;
    const bool underscore = c == '_';
    dunder_ = dunder_ || (underscore && prev_underscore_);
    prev_underscore_ = underscore;
  }
  pos_ += static_cast<std::uint64_t>(q - p);
  return q;
}

void Lexer::end_name() {
  st_ = St::tag;
  Token t;
  t.kind = TokenKind::name;
  t.offset = tok_at_;
  t.text = text_;
  t.length = length_;
  t.dunder = dunder_;
  sink_.token(t);
}

// Numbers as Jinja's float_re and integer_re read them: digits with single _ separators, a
// fraction, an exponent, 0x/0o/0b. Only where a number ends matters here: "1__x" is the number 1
// and the name __x.
void Lexer::start_number(char32_t c, std::uint64_t at) {
  st_ = St::number;
  tok_at_ = at;
  num_ = Num::digits;
  num_radix_ = 10;
  num_dot_ = num_exp_ = false;
  num_lone_zero_ = c == '0';
  num_first_one_ = c == '1';
  num_more_digits_ = false;
}

void Lexer::number_cp(char32_t c, std::uint64_t at) {
  const auto ends = [&](std::initializer_list<char32_t> replay) {
    end_number();
    for (const char32_t r : replay) dispatch(r, pend_at_);
    if (c != kEnd) dispatch(c, at);
  };
  switch (num_) {
    case Num::digits:
      if (is_digit(c, num_radix_)) {
        num_more_digits_ = true;
        num_lone_zero_ = false;
        return;
      }
      pend_at_ = at;
      if (c == '_') {
        num_ = Num::underscore;
        return;
      }
      if (num_radix_ == 10 && num_lone_zero_ && (c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == 'b' || c == 'B')) {
        num_ = Num::radix;
        num_sign_ = c;
        return;
      }
      if (num_radix_ == 10 && c == '.' && !num_dot_ && !num_exp_) {
        num_ = Num::dot;
        return;
      }
      if (num_radix_ == 10 && (c == 'e' || c == 'E') && !num_exp_) {
        num_ = Num::exp_e;
        num_sign_ = c;
        return;
      }
      return ends({});
    case Num::underscore:
      if (is_digit(c, num_radix_)) {
        num_more_digits_ = true;
        num_ = Num::digits;
        return;
      }
      return ends({'_'});
    case Num::dot:
      if (is_digit(c, 10)) {
        num_more_digits_ = true;
        num_ = Num::digits;
        num_dot_ = true;
        return;
      }
      return ends({'.'});
    case Num::exp_e:
      if (is_digit(c, 10)) {
        num_more_digits_ = true;
        num_ = Num::digits;
        num_exp_ = true;
        return;
      }
      if (c == '+' || c == '-') {
        num_ = Num::exp_sign;
        num_minus_ = c == '-';
        return;
      }
      return ends({num_sign_});
    case Num::exp_sign:
      if (is_digit(c, 10)) {
        num_more_digits_ = true;
        num_ = Num::digits;
        num_exp_ = true;
        return;
      }
      return ends({num_sign_, num_minus_ ? U'-' : U'+'});
    case Num::radix: {
      const unsigned radix = (num_sign_ | 0x20) == 'x' ? 16 : (num_sign_ | 0x20) == 'o' ? 8 : 2;
      if (is_digit(c, radix)) {
        num_more_digits_ = true;
        num_ = Num::digits;
        num_radix_ = radix;
        num_lone_zero_ = false;
        return;
      }
      return ends({num_sign_});
    }
  }
}

void Lexer::end_number() {
  st_ = St::tag;
  Token t;
  t.kind = TokenKind::number;
  t.offset = tok_at_;
  t.unit = num_first_one_ && !num_more_digits_;
  sink_.token(t);
}

}  // namespace tensorgate::detail::ct
