// Flow: the statements that bind names ({% set %}, {% for %}, {% with %}, {% macro %},
// {% call %}) and where each tag begins and ends.
#include "chat_template/flow.hpp"

namespace tensorgate::detail::ct {
namespace {

constexpr std::size_t kTargets = 16;  // names one statement binds; more are taken as built

bool keyword(const Token& t) {
  for (const std::string_view k : {"and", "or", "not", "in", "is", "if", "else", "recursive"})
    if (t.is_name(k)) return true;
  return false;
}

}  // namespace

void Flow::tag_begin(bool block) {
  block_ = block;
  tokens_ = 0;
  stmt_ = Stmt::expression;
  prev_ = Prev::start;
  callee_ = Callee{};
  unescaped_ = kNoName;
  frames_.clear();
  frames_.emplace_back();
  overflow_ = 0;
  macro_.clear();
  targets_.clear();
}

void Flow::tag_end() {
  if (unescaped_ != kNoName) names_.escape(unescaped_);
  unescaped_ = kNoName;
  overflow_ = 0;
  while (frames_.size() > 1) close();  // left open (CT.lex): what they held still counts
  commit(top());
  if (stmt_ == Stmt::set_value || stmt_ == Stmt::for_value || stmt_ == Stmt::with_value) bind_targets(top().acc);
  if (stmt_ == Stmt::set_targets) {  // {% set x %}...{% endset %}: the block's output text
    Value text;
    text.built = true;
    bind_targets(text);
  }
  tag_begin(false);
}

void Flow::statement(std::string_view k) {
  if (k == "set") stmt_ = Stmt::set_targets;
  else if (k == "for") stmt_ = Stmt::for_targets;
  else if (k == "with") stmt_ = Stmt::with_targets;
  else if (k == "macro") stmt_ = Stmt::macro_name;
  else if (k == "call") stmt_ = Stmt::call_head;
  else if (k == "filter") prev_ = Prev::pipe;  // {% filter name(...) %} names a filter, as after |
}

// A name that a statement gives its meaning: a keyword, a target, a macro's name or parameter.
bool Flow::on_statement_name(const Token& t) {
  if (keyword(t)) {
    on_keyword(t);
    return true;
  }
  switch (stmt_) {
    case Stmt::set_targets:
    case Stmt::for_targets:
    case Stmt::with_targets: add_target(names_.id(t.text)); break;
    case Stmt::macro_name:
      if (!macro_.empty()) return false;
      macro_ = std::string(t.text);
      names_.define_macro(t.text);
      break;
    case Stmt::call_head: stmt_ = Stmt::expression; return false;  // {% call m(...) %}: a call
    default: {
      Frame& f = here();
      if (f.kind != Kind::params || f.arg_tokens != 1) return false;
      // A parameter: what its callers pass (its default is read up to the next comma).
      f.param = names_.id(t.text);
      Value arguments;
      arguments.ref(f.arguments);
      names_.bind(f.param, arguments);
      break;
    }
  }
  prev_ = Prev::value;
  callee_ = Callee{};
  return true;
}

void Flow::on_keyword(const Token& t) {
  commit(here());
  prev_ = t.is_name("is") ? Prev::test : Prev::op;
  callee_ = Callee{};
  if (frames_.size() != 1) return;
  if (stmt_ == Stmt::for_targets && t.is_name("in")) {
    stmt_ = Stmt::for_value;
    top().acc = Value{};
    return;
  }
  // {% for x in xs if cond recursive %}: the iterable ends at "if" or "recursive"; a
  // recursive loop's loop(items) gives the targets new values.
  if ((stmt_ == Stmt::for_value || stmt_ == Stmt::for_rest) && (t.is_name("if") || t.is_name("recursive"))) {
    if (stmt_ == Stmt::for_value) bind_targets(top().acc);
    stmt_ = Stmt::for_rest;
    if (t.is_name("recursive")) {
      Value again;
      again.ref(names_.arguments_of("loop"));
      bind_targets(again);
    }
  }
}

void Flow::on_comma() {
  Frame& f = here();
  if (f.kind == Kind::params) {
    end_argument(f);
    f.arg_tokens = 0;
    ++f.arg;
    return;
  }
  commit(f);
  if (f.kind == Kind::subscript) f.slice_or_tuple = true;
  if (f.kind == Kind::call) {
    ++f.arg;
    f.arg_tokens = 0;
  }
  if (frames_.size() == 1 && stmt_ == Stmt::with_value) {  // {% with a = x, b = y %}
    bind_targets(top().acc);
    targets_.clear();
    top().acc = Value{};
    stmt_ = Stmt::with_targets;
  }
}

void Flow::on_assign() {
  Frame& f = here();
  if (frames_.size() == 1) {
    if (stmt_ == Stmt::set_targets || stmt_ == Stmt::with_targets) {
      stmt_ = stmt_ == Stmt::set_targets ? Stmt::set_value : Stmt::with_value;
      f.acc = f.op = Value{};
    }
    return;
  }
  if (f.kind != Kind::call) return;
  f.op = Value{};  // name=value: the name is the keyword, not a value
  if (f.makes == Makes::map && f.arg == 0) f.map_keeps = true;  // map(attribute=...)
}

// A macro or call-block parameter's default, up to its comma or the closing parenthesis.
void Flow::end_argument(Frame& f) {
  commit(f);
  names_.bind(f.param, f.acc);
  f.acc = Value{};
  f.param = kNoName;
}

void Flow::add_target(std::uint32_t id) {
  if (targets_.size() < kTargets) {
    targets_.push_back(id);
    return;
  }
  Value built;
  built.built = true;
  names_.bind(id, built);
}

void Flow::bind_targets(const Value& v) {
  for (const std::uint32_t t : targets_) names_.bind(t, v);
}

}  // namespace tensorgate::detail::ct
