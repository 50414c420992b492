#pragma once
// A push lexer for Jinja templates with Jinja's default syntax and the options chat template
// renderers use (transformers: trim_blocks, lstrip_blocks; no line statements), following
// jinja2/lexer.py rule for rule:
//  - data up to the first {{, {% or {#; a tag begin may carry - or + (whitespace control);
//  - {% raw %} ... {% endraw %} (with - or + and whitespace inside) is data;
//  - {# ... #} is a comment, never tokens;
//  - inside a tag: whitespace (Python's str.isspace, Unicode included), numbers (with _
//    separators, fractions, exponents, 0x/0o/0b), names, strings ('...' or "..." with any
//    character escaped by a backslash, across lines), operators; the end tag (}} or -}}; %},
//    -%} or +%}) counts only while no bracket is open, as Jinja's balancing stack has it.
// A string's value is decoded as Jinja does (Python's unicode-escape: \x5f, \u005f,
// \U0000005f, \137, \N{LOW LINE}, line continuations; an unknown escape keeps its backslash),
// so that the analysis sees what the renderer sees.
//
// Input is UTF-8. Invalid bytes are dropped, as a reader decoding with errors="ignore" does, so
// that a byte between two underscores cannot hide them (a strict reader refuses the template,
// which is CT.lex).
//
// Fed in chunks of any size: every decision depends on the bytes alone, never on where a chunk
// ends (a partial code point, delimiter or escape is a state). Memory is O(1): names and string
// values are kept to Token's kKeep bytes, brackets to the depth limit.
// On an error (CT.lex) the lexer reports it and goes on as leniently as it can: an unexpected
// character is skipped, a mismatched bracket closes the innermost one. Jinja refuses such a
// template; the analysis still sees every name and string after the problem.
#include <cstdint>
#include <string>
#include <string_view>

#include "chat_template/string_facts.hpp"
#include "chat_template/token.hpp"

namespace tensorgate::detail::ct {

class Lexer {
 public:
  Lexer(TokenSink& sink, std::uint32_t max_depth) : sink_(sink), max_depth_(max_depth) {}
  void reset();
  void feed(std::string_view bytes);
  void finish();  // the end of the template: anything left open is CT.lex
  std::uint64_t bytes() const { return pos_; }

 private:
  enum class St : std::uint8_t {
    data, data_brace,                  // text; a '{' that may begin a tag
    var_mod, block_mod,                // after {{ or {%: an optional - or +
    raw_probe,                         // after {%[-+]: is it {% raw %}?
    comment, comment_hash,             // {# ... #}
    raw, raw_brace, raw_end,           // {% raw %} ... {% endraw %}
    tag, pending,                      // between tokens; a char that may start - }} %} // ...
    name, number, string,              // inside a token
  };
  enum class Esc : std::uint8_t { none, start, cr, octal, hex, named_open, named, named_esc };
  enum class Num : std::uint8_t { digits, underscore, dot, exp_e, exp_sign, radix };

  // lexer.cpp: bytes to code points, data, comments, raw blocks.
  void byte(unsigned char b);
  void cp(char32_t c, std::uint64_t at);
  void data_cp(char32_t c, std::uint64_t at);
  void raw_probe_cp(char32_t c, std::uint64_t at);
  void raw_probe_fail(char32_t c, std::uint64_t at);
  void raw_end_cp(char32_t c);
  void open_tag(bool block, std::uint64_t at);
  void end_tag(std::uint64_t at);
  void note_invalid_utf8(std::uint64_t at);
  const char* fast_path(const char* p, const char* end);

  // lexer_tag.cpp: the tokens of a tag.
  void dispatch(char32_t c, std::uint64_t at);  // by the state: a token in progress or between
  void tag_cp(char32_t c, std::uint64_t at);
  void pending_cp(char32_t c, std::uint64_t at);
  void op(std::string_view o, std::uint64_t at);
  void open_bracket(char c, std::uint64_t at);
  void close_bracket(char c, std::uint64_t at);
  bool balanced() const { return stack_.empty() && overflow_ == 0; }
  void start_name(char32_t c, std::uint64_t at);
  void name_cp(char32_t c, std::uint64_t at);
  void end_name();
  const char* fast_name(const char* p, const char* end);
  void start_number(char32_t c, std::uint64_t at);
  void number_cp(char32_t c, std::uint64_t at);
  void end_number();

  // lexer_string.cpp: a string literal and its escapes.
  void start_string(char32_t quote, std::uint64_t at);
  void string_cp(char32_t c, std::uint64_t at);
  void escape_cp(char32_t c, std::uint64_t at);
  void escape_begin(char32_t c);
  void escape_name_cp(char32_t c);
  void decoded(char32_t c);  // one character of the value
  void end_string();
  const char* fast_string(const char* p, const char* end);

  TokenSink& sink_;
  std::uint32_t max_depth_;
  std::uint64_t pos_ = 0;  // bytes consumed
  St st_ = St::data;
  bool block_ = false;     // the open tag is {% %}
  bool utf8_noted_ = false;

  // The UTF-8 front: a code point in progress.
  unsigned u8_need_ = 0;
  char32_t u8_cp_ = 0, u8_min_ = 0;
  std::uint64_t u8_at_ = 0;

  // Open brackets: kinds up to max_depth_, counted past it.
  std::string stack_;
  std::uint64_t overflow_ = 0;

  // A char waiting for the next to decide (pending), or a raw probe's progress.
  char pend_ = 0;       // '-', '+', '}', '%', '/', '*', '=', '!', '<', '>', or 'a' (-}) 'b' (-%) 'c' (+%)
  std::uint64_t pend_at_ = 0;
  unsigned probe_ = 0;  // raw_probe / raw_end: how far the pattern matched
  bool probe_minus_ = false;
  std::uint64_t probe_at_ = 0;    // where the tag the probe reads began
  std::uint64_t probe_r_at_ = 0;  // where its "raw" began

  // The token in progress.
  std::uint64_t tok_at_ = 0;
  std::string text_;
  std::uint64_t length_ = 0;
  bool dunder_ = false, prev_underscore_ = false, first_underscore_ = false;
  // numbers
  Num num_ = Num::digits;
  unsigned num_radix_ = 10;
  bool num_dot_ = false, num_exp_ = false, num_lone_zero_ = false, num_minus_ = false;
  bool num_first_one_ = false, num_more_digits_ = false;  // begins with 1; has more digits than one
  char32_t num_sign_ = 0;  // the letter of an exponent or radix prefix that may not belong to the number
  // strings
  char32_t quote_ = 0;
  Esc esc_ = Esc::none;
  std::uint32_t esc_value_ = 0;
  unsigned esc_digits_ = 0, esc_need_ = 0;
  std::string esc_name_;  // \N{...}, kept to kEscName bytes
  std::uint64_t esc_at_ = 0;
  StringFacts facts_;
};

}  // namespace tensorgate::detail::ct
