#pragma once
// The CT rules over the lexer's tokens (docs/rules.md, family CT):
//  - python-internals: a name or a decoded string value that holds "__"; string literals that
//    put "__" together when joined (~, +, adjacent literals, list or tuple elements,
//    parentheses between them), or when repeated ('_' * 2); a sandbox-escape gadget (self,
//    cycler, joiner, namespace, lipsum, config, request, range) followed by ".", "[" or "|attr";
//  - attr-filter: |attr, and map('attr', ...);
//  - computed-subscript: x[...] whose argument is not literals (strings, numbers, signs, ':');
//  - computed-attribute: attribute= of map/sort/sum/unique/min/max/groupby, or the first
//    argument of selectattr/rejectattr/groupby, that is not a string literal;
//  - lex: what the lexer could not read.
// Strings a template builds at render time from variables or other filters cannot be judged
// before rendering; using one as an attribute name needs |attr, a subscript or attribute=, which
// the warnings report. Each rule keeps its first place and a count: O(1) memory per template.
#include <cstdint>
#include <string>
#include <vector>

#include "chat_template/token.hpp"

namespace tensorgate::detail::ct {

struct Hit {
  std::uint64_t count = 0;
  std::uint64_t first = 0;  // offset of the first one in the template
  std::string what;         // the first one, said for a message
};

class Analysis final : public TokenSink {
 public:
  explicit Analysis(std::uint32_t max_depth) : max_depth_(max_depth) {}
  void reset();

  void tag_begin(bool block, std::uint64_t at) override;
  void tag_end(std::uint64_t at) override;
  void token(const Token& t) override;
  void lex_error(std::uint64_t at, std::string_view what) override;

  Hit internals, attr_filter, subscript, attribute, lex;

 private:
  // A filter's use of attribute names (flags).
  enum : std::uint8_t { kFirstArg = 1, kAttributeKw = 2, kMapAttr = 4 };
  enum class Prev : std::uint8_t { none, name, keyword, string, number, op };
  enum class Role : std::uint8_t { group, subscript, call };

  struct Frame {
    Role role = Role::group;
    char open = '(';
    std::uint8_t filter = 0;        // call of a filter: its flags
    std::string_view filter_name;   // static storage
    std::uint64_t at = 0;
    bool literal = true;            // subscript: literals only so far
    std::uint32_t tokens = 0;       // subscript: tokens; call: tokens of the current argument
    std::uint32_t arg = 0;          // call: index of the current argument
    std::uint64_t arg_at = 0;
    bool first_name = false, first_is_attribute = false, keyword = false, keyword_attribute = false;
    std::uint32_t value_tokens = 0;
    bool value_literal = true, value_first_attr = false;
  };

  // Counts one more; the first one's message is made only then (`say` builds it).
  template <typename Say>
  void hit(Hit& h, std::uint64_t at, Say&& say) {
    if (h.count++ == 0) {
      h.first = at;
      h.what = say();
    }
  }
  void resolve_gadget(const Token& t);
  void count_in_frame(Frame& f, const Token& t);
  void finish_argument(Frame& f);
  void on_name(const Token& t);
  void on_string(const Token& t);
  void on_op(const Token& t);
  void open_frame(const Token& t);
  void close_frame();
  bool after_value() const;  // the previous token ends a value: "[" subscripts, "(" calls

  std::uint32_t max_depth_;
  std::vector<Frame> frames_;
  std::uint64_t frames_overflow_ = 0;

  bool block_ = false;
  std::uint32_t tokens_in_tag_ = 0;
  Prev prev_ = Prev::none;
  std::string prev_op_;             // the previous operator
  bool prev_is_ = false, prev_is_not_ = false, prev_filter_kw_ = false;
  bool prev_string_ends_underscore_ = false;  // a non-empty string that begins and ends with _
  std::uint8_t prev_filter_ = 0;    // the previous token names a filter: its flags
  std::string_view prev_filter_name_;
  std::uint8_t call_filter_ = 0;    // ... as it was before the current token
  std::string_view call_filter_name_;

  // A gadget name just seen: stage 0, then 1 after "|".
  bool gadget_ = false;
  unsigned gadget_stage_ = 0;
  std::uint64_t gadget_at_ = 0;
  std::string gadget_name_;

  // A run of string literals being joined: whether its value so far ends with "_".
  bool run_ = false, run_tail_underscore_ = false;
};

}  // namespace tensorgate::detail::ct
