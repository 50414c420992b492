#pragma once
// CT.computed-subscript: which subscripts may look up a string the template built at render time.
// Jinja's Environment.getitem(x, k) tries x[k] and, when that fails and k is a string, returns
// getattr(x, k): a key the template builds ('xxclassxx'|replace('x', '_'), '%c%c'|format(95, 95),
// a ~ b) reaches any attribute. A key that is a number (loop.index0 - 1, range()'s, |length) or a
// slice reaches none, and one read from the caller's data (messages, tools) is not the template's
// to choose. So the check follows values through the template's expressions and bindings:
//  - an expression's value (value.hpp): built by ~, a filter, method or call that may make a new
//    string (flow_names.hpp), + * % over a string literal; the names it comes from;
//  - bindings: {% set %} (a block set captures output text: built), {% for %} (with recursive,
//    loop(...)'s arguments too), {% with %}, macro and call-block parameters (their callers'
//    arguments), the receivers of append/update/...;
//  - a key built in place is reported at once; a key that reads names is judged at the end
//    (name_flow.hpp), when every binding is known.
// Brackets are tracked to Limits::chat_template.max_bracket_depth; what is deeper counts as built.
#include <cstdint>
#include <string>
#include <vector>

#include "chat_template/flow_names.hpp"
#include "chat_template/hit.hpp"
#include "chat_template/name_flow.hpp"
#include "chat_template/token.hpp"
#include "chat_template/value.hpp"

namespace tensorgate::detail::ct {

class Flow {
 public:
  Flow(std::uint32_t max_depth, std::uint32_t max_names) : max_depth_(max_depth), names_(max_names) {}
  void reset();
  void tag_begin(bool block);
  void tag_end();
  void token(const Token& t);
  Hit finish();  // the subscripts of CT.computed-subscript

 private:
  enum class Kind : std::uint8_t { group, subscript, call, params };
  enum class Stmt : std::uint8_t {
    expression, set_targets, set_value, for_targets, for_value, for_rest, with_targets, with_value,
    macro_name, call_head,
  };
  enum class Prev : std::uint8_t { start, value, dot, pipe, test, op };

  // What a "(" after the current token calls, and where the call's arguments go.
  struct Callee {
    enum class Arguments : std::uint8_t { nowhere, named, any };
    Makes makes = Makes::builds;
    Arguments to = Arguments::nowhere;  // named: arguments_of(callee_name_); any: any_call()
  };
  struct Frame {
    Kind kind = Kind::group;
    Makes makes = Makes::parts;         // call: what it makes of its arguments
    std::uint32_t arguments = kNoName;  // call, params: where its arguments go
    Value acc, op;  // the operands before the current one; the current one
    std::uint64_t at = 0;
    bool literal_only = true, slice_or_tuple = false, any = false;  // subscript
    std::uint8_t colons = 0, step_tokens = 0;                      // subscript: a slice's step
    bool step_keeps = true;                                         // ... is none, 1 or -1
    bool map_keeps = false;                                         // |map(...): keeps parts
    std::uint32_t arg = 0, arg_tokens = 0;                          // call, params
    std::uint32_t param = kNoName;                                  // params: its default's parameter
  };

  // flow.cpp: tokens, brackets, operators.
  void on_name(const Token& t);
  void on_reference(const Token& t);
  void on_op(const Token& t);
  void apply_filter(std::string_view name);
  void open(Kind kind, std::uint64_t at);
  void close();
  void close_call(const Frame& f, const Value& v);
  void judge_key(const Frame& f, const Value& key);
  void note_in_frame(const Token& t);
  static void note_step(Frame& f, const Token& t);
  static void commit(Frame& f);

  // flow_statements.cpp: set, for, with, macro, call and their bindings.
  void statement(std::string_view keyword);
  bool on_statement_name(const Token& t);
  void on_keyword(const Token& t);
  void on_comma();
  void on_assign();
  void add_target(std::uint32_t id);
  void bind_targets(const Value& v);
  void end_argument(Frame& f);

  Frame& top() { return frames_.front(); }
  Frame& here() { return frames_.back(); }

  std::uint32_t max_depth_;
  NameFlow names_;
  std::vector<Frame> frames_;
  std::uint64_t overflow_ = 0;  // brackets open past max_depth_
  Hit built_keys_;              // keys built in place

  bool block_ = false;
  std::uint32_t tokens_ = 0;    // tokens of the tag so far
  Stmt stmt_ = Stmt::expression;
  Prev prev_ = Prev::start;
  Callee callee_;
  std::string callee_name_;            // a named callee's name, for arguments_of
  std::uint32_t unescaped_ = kNoName;  // a name that is a value unless "(" follows
  std::string macro_;                  // {% macro NAME %}: its name, for its parameters
  std::vector<std::uint32_t> targets_;
  bool recursive_ = false;
};

}  // namespace tensorgate::detail::ct
