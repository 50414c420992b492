#pragma once
// The CT rules over the lexer's tokens (docs/rules.md, family CT):
//  - python-internals: an attribute name or a decoded string value that holds "__" (a bare name
//    resolves in the render context, never in Python); string literals that
//    put "__" together when joined (~, +, adjacent literals, list or tuple elements,
//    parentheses between them), or when repeated ('_' * 2); a sandbox-escape gadget (self,
//    cycler, joiner, namespace, lipsum, config, request, range) followed by ".", "[" or "|attr";
//    an attribute, or a part of a string literal between dots, that names an interpreter
//    internal without underscores (internal_names.hpp: gi_frame, f_globals, _environment...);
//  - attr-filter: |attr(name) or map('attr', name) whose name is not a string literal, or map
//    with a filter name that is not one (it may be 'attr');
//  - computed-attribute: the attribute argument of a filter that reads attributes by name
//    (analysis_filters.cpp) that is not a literal, or arguments passed to one by * or **;
//  - str-format: a call of a string's format or format_map method whose format string is not one
//    literal, or is one with a field that reads an attribute or an item;
//  - computed-subscript: flow.hpp;
//  - lex: what the lexer could not read.
// Strings a template builds at render time cannot be judged before rendering; every way of
// using one as an attribute name is one of the above. Each rule keeps its first place and a
// count.
#include <cstdint>
#include <string>
#include <vector>

#include "chat_template/flow.hpp"
#include "chat_template/hit.hpp"
#include "chat_template/token.hpp"

namespace tensorgate::detail::ct {

struct AttributeFilter;  // analysis_filters.cpp

class Analysis final : public TokenSink {
 public:
  Analysis(std::uint32_t max_depth, std::uint32_t max_names) : max_depth_(max_depth), flow_(max_depth, max_names) {}
  void reset();

  void tag_begin(bool block, std::uint64_t at) override;
  void tag_end(std::uint64_t at) override;
  void token(const Token& t) override;
  void lex_error(std::uint64_t at, std::string_view what) override;
  // The end of the template: the rules judged only then.
  void finish() { subscript = flow_.finish(); }

  Hit internals, attr_filter, attribute, str_format, subscript, lex;

 private:
  enum class Prev : std::uint8_t { none, name, keyword, string, number, op };
  enum class Role : std::uint8_t { group, subscript, call };
  // What a string's format method would be called on.
  enum class Receiver : std::uint8_t { literal, reading_literal, computed };

  struct Frame {
    Role role = Role::group;
    char open = '(';
    const AttributeFilter* filter = nullptr;  // call of a filter that reads attributes
    std::uint64_t at = 0;
    bool format_name = false;       // subscript ['format'], attr('format'): the method by its name
    std::uint32_t tokens = 0;       // subscript: tokens; call: tokens of the current argument
    std::uint32_t positional = 0;   // call: positional arguments before the current one
    std::uint32_t base = 0;         // call: where the filter's own positional arguments begin
    std::uint64_t arg_at = 0;
    bool first_name = false, keyword = false, keyword_attribute = false, splat = false;
    // The current argument's value: its tokens by kind; its text when it is one whole string.
    std::uint32_t value_tokens = 0, value_strings = 0, value_numbers = 0;
    bool value_minus = false, value_other = false;
    std::string value_text;
  };

  void resolve_gadget(const Token& t);
  void resolve_format(const Token& t);
  void count_in_frame(Frame& f, const Token& t);
  void finish_argument(Frame& f);
  void judge_positional(Frame& f, bool literal);
  void on_name(const Token& t);
  void on_string(const Token& t);
  void on_op(const Token& t);
  void open_frame(const Token& t);
  void close_frame();
  bool after_value() const;  // the previous token ends a value: "[" subscripts, "(" calls

  std::uint32_t max_depth_;
  Flow flow_;
  std::vector<Frame> frames_;
  std::uint64_t frames_overflow_ = 0;

  bool block_ = false;
  std::uint32_t tokens_in_tag_ = 0;
  Prev prev_ = Prev::none;
  std::string prev_op_;             // the previous operator
  bool prev_is_ = false, prev_is_not_ = false, prev_filter_kw_ = false;
  bool prev_string_ends_underscore_ = false;  // a non-empty string that begins and ends with _
  const AttributeFilter* prev_filter_ = nullptr;  // the previous token names a filter
  const AttributeFilter* call_filter_ = nullptr;  // ... as it was before the current token

  // A gadget name just seen: stage 0, then 1 after "|".
  bool gadget_ = false;
  unsigned gadget_stage_ = 0;
  std::uint64_t gadget_at_ = 0;
  std::string gadget_name_;

  // A run of string literals being joined: whether its value so far ends with "_".
  bool run_ = false, run_tail_underscore_ = false;

  // str.format: the previous string literal (alone, not adjacent to another), what a "."
  // after it reaches, and a format method waiting for its "(".
  Receiver prev_receiver_ = Receiver::computed, dot_receiver_ = Receiver::computed;
  bool format_pending_ = false;
  Receiver format_receiver_ = Receiver::computed;
  std::uint64_t format_at_ = 0;
};

}  // namespace tensorgate::detail::ct
