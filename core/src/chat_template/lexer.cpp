// Lexer: the UTF-8 front, data, comments and raw blocks; feeding and the end of the template.
// The tokens of a tag are lexer_tag.cpp, strings lexer_string.cpp.
#include "chat_template/lexer.hpp"

#include "chat_template/chars.hpp"

namespace tensorgate::detail::ct {

std::string describe(char32_t c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "U+";
  const int digits = c > 0xFFFF ? 6 : 4;
  for (int i = digits - 1; i >= 0; --i) out += kHex[(c >> (4 * i)) & 0xF];
  return out;
}

void Lexer::reset() {
  pos_ = 0;
  st_ = St::data;
  block_ = utf8_noted_ = false;
  u8_need_ = 0;
  stack_.clear();
  overflow_ = 0;
  pend_ = 0;
  probe_ = 0;
  esc_ = Esc::none;
  text_.clear();
}

void Lexer::feed(std::string_view bytes) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  while (p < end) {
    if (u8_need_ == 0) {
      p = fast_path(p, end);
      if (p == end) break;
    }
    byte(static_cast<unsigned char>(*p++));
  }
}

// Runs of ASCII that change nothing but the position (text, comments, raw blocks) or only a
// string's value: the same transitions as byte() takes for each of them, without the dispatch.
const char* Lexer::fast_path(const char* p, const char* end) {
  char target;
  switch (st_) {
    case St::data:
    case St::raw: target = '{'; break;
    case St::comment: target = '#'; break;
    case St::string: return esc_ == Esc::none ? fast_string(p, end) : p;
    case St::name: return fast_name(p, end);
    case St::tag: {  // ASCII whitespace between tokens
      const char* q = p;
      while (q < end && static_cast<unsigned char>(*q) < 0x80 && is_space(static_cast<unsigned char>(*q))) ++q;
      pos_ += static_cast<std::uint64_t>(q - p);
      return q;
    }
    default: return p;
  }
  const char* q = p;
  while (q < end && static_cast<unsigned char>(*q) < 0x80 && *q != target) ++q;
  pos_ += static_cast<std::uint64_t>(q - p);
  return q;
}

// Bytes to code points. A sequence that breaks off, an overlong form, a surrogate or a value past
// U+10FFFF is dropped (errors="ignore") and noted once.
void Lexer::byte(unsigned char b) {
  const std::uint64_t at = pos_++;
  if (u8_need_ > 0) {
    if ((b & 0xC0) == 0x80) {
      u8_cp_ = (u8_cp_ << 6) | (b & 0x3F);
      if (--u8_need_ > 0) return;
      if (u8_cp_ < u8_min_ || u8_cp_ > 0x10FFFF || (u8_cp_ >= 0xD800 && u8_cp_ <= 0xDFFF)) note_invalid_utf8(u8_at_);
      else cp(u8_cp_, u8_at_);
      return;
    }
    u8_need_ = 0;
    note_invalid_utf8(u8_at_);
  }
  if (b < 0x80) {
    cp(b, at);
    return;
  }
  u8_at_ = at;
  if (b >= 0xC2 && b <= 0xDF) {
    u8_need_ = 1, u8_cp_ = b & 0x1F, u8_min_ = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    u8_need_ = 2, u8_cp_ = b & 0x0F, u8_min_ = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    u8_need_ = 3, u8_cp_ = b & 0x07, u8_min_ = 0x10000;
  } else {
    note_invalid_utf8(at);
  }
}

void Lexer::note_invalid_utf8(std::uint64_t at) {
  if (utf8_noted_) return;
  utf8_noted_ = true;
  sink_.lex_error(at, "invalid UTF-8 (a reader that drops it sees the rest as judged here)");
}

void Lexer::cp(char32_t c, std::uint64_t at) {
  switch (st_) {
    case St::data:
    case St::data_brace: data_cp(c, at); return;
    case St::var_mod:
      st_ = St::tag;
      if (c != '-' && c != '+') dispatch(c, at);
      return;
    case St::block_mod:
      st_ = St::raw_probe;
      probe_ = 0;
      if (c != '-' && c != '+') raw_probe_cp(c, at);
      return;
    case St::raw_probe: raw_probe_cp(c, at); return;
    case St::comment:
      if (c == '#') st_ = St::comment_hash;
      return;
    case St::comment_hash:
      if (c == '}') st_ = St::data;
      else if (c != '#') st_ = St::comment;
      return;
    case St::raw:
    case St::raw_brace:
    case St::raw_end: raw_end_cp(c); return;
    default: dispatch(c, at); return;
  }
}

// Data: the earliest {{, {% or {# begins a tag or a comment.
void Lexer::data_cp(char32_t c, std::uint64_t at) {
  if (st_ == St::data) {
    if (c == '{') st_ = St::data_brace, probe_at_ = at;
    return;
  }
  if (c == '{') {  // "{{": a variable tag
    open_tag(false, probe_at_);
    st_ = St::var_mod;
  } else if (c == '%') {  // "{%": a block, unless it is {% raw %}
    st_ = St::block_mod;
  } else if (c == '#') {
    st_ = St::comment;
  } else {
    st_ = St::data;
  }
}

// After "{%" and its optional - or +: Jinja's raw_begin, \s*raw\s*(-%}|%}), before any block.
void Lexer::raw_probe_cp(char32_t c, std::uint64_t at) {
  switch (probe_) {
    case 0:
      if (is_space(c)) return;
      if (c == 'r') {
        probe_ = 1;
        probe_r_at_ = at;
        return;
      }
      break;
    case 1:
    case 2:
      if (c == static_cast<char32_t>("raw"[probe_])) {
        ++probe_;
        return;
      }
      break;
    case 3:
    case 4:
      if (is_space(c)) {
        probe_ = 4;
        return;
      }
      if (c == '-' || c == '%') {
        probe_minus_ = c == '-';
        probe_ = c == '-' ? 5 : 6;
        return;
      }
      break;
    case 5:
      if (c == '%') {
        probe_ = 6;
        return;
      }
      break;
    case 6:
      if (c == '}') {
        st_ = St::raw;
        return;
      }
      break;
  }
  raw_probe_fail(c, at);
}

// Not {% raw %}: a block tag whose first characters were read as the probe went; they are given
// to the tag lexer again (the whitespace as one space, which lexes the same).
void Lexer::raw_probe_fail(char32_t c, std::uint64_t at) {
  open_tag(true, probe_at_);
  st_ = St::tag;
  const unsigned letters = probe_ > 3 ? 3 : probe_;
  for (unsigned i = 0; i < letters; ++i) dispatch(static_cast<char32_t>("raw"[i]), probe_r_at_ + i);
  if (probe_ >= 4) dispatch(' ', at);
  if (probe_ == 5 || (probe_ == 6 && probe_minus_)) dispatch('-', at);
  if (probe_ == 6) dispatch('%', at);
  probe_ = 0;
  if (c != kEnd) dispatch(c, at);
}

// Inside {% raw %}: data up to Jinja's {%[-+]?\s*endraw\s*(+%}|-%}|%}).
void Lexer::raw_end_cp(char32_t c) {
  if (st_ == St::raw) {
    if (c == '{') st_ = St::raw_brace;
    return;
  }
  if (st_ == St::raw_brace) {
    if (c == '%') st_ = St::raw_end, probe_ = 0;
    else if (c != '{') st_ = St::raw;
    return;
  }
  constexpr std::string_view kEndraw = "endraw";
  switch (probe_) {
    case 0:
      probe_ = 1;
      if (c == '-' || c == '+') return;
      [[fallthrough]];
    case 1:
      if (is_space(c)) return;
      if (c == 'e') {
        probe_ = 2;
        return;
      }
      break;
    case 2: case 3: case 4: case 5: case 6:
      if (c == static_cast<char32_t>(kEndraw[probe_ - 1])) {
        ++probe_;
        return;
      }
      break;
    case 7:
      if (is_space(c)) return;
      if (c == '-' || c == '+') {
        probe_ = 8;
        return;
      }
      if (c == '%') {
        probe_ = 9;
        return;
      }
      break;
    case 8:
      if (c == '%') {
        probe_ = 9;
        return;
      }
      break;
    case 9:
      if (c == '}') {
        st_ = St::data;
        return;
      }
      break;
  }
  st_ = c == '{' ? St::raw_brace : St::raw;
}

void Lexer::open_tag(bool block, std::uint64_t at) {
  block_ = block;
  stack_.clear();
  overflow_ = 0;
  sink_.tag_begin(block, at);
}

void Lexer::end_tag(std::uint64_t at) {
  st_ = St::data;
  sink_.tag_end(at);
}

void Lexer::finish() {
  if (u8_need_ > 0) {
    u8_need_ = 0;
    note_invalid_utf8(u8_at_);
  }
  switch (st_) {
    case St::data:
    case St::data_brace: return;
    case St::comment:
    case St::comment_hash:
      sink_.lex_error(pos_, "the template ends inside a comment ({# without #})");
      st_ = St::data;
      return;
    case St::raw:
    case St::raw_brace:
    case St::raw_end:
      sink_.lex_error(pos_, "the template ends inside {% raw %} (no {% endraw %})");
      st_ = St::data;
      return;
    case St::block_mod: probe_ = 0; [[fallthrough]];
    case St::raw_probe: raw_probe_fail(kEnd, pos_); break;
    case St::var_mod: st_ = St::tag; break;
    default: break;
  }
  // A token in progress ends here; a char that waited for the next means itself.
  for (int i = 0; i < 8 && st_ != St::tag; ++i) dispatch(kEnd, pos_);
  sink_.lex_error(pos_, block_ ? "the template ends inside a {% %} tag" : "the template ends inside a {{ }} tag");
  end_tag(pos_);
}

}  // namespace tensorgate::detail::ct
