// Flow: expressions. Each bracket level keeps the value of the operands read so far and of the
// current one, which postfix operators (.name, [key], (arguments), |filter) change; an infix
// operator ends the current operand. Statements and bindings are flow_statements.cpp.
#include "chat_template/flow.hpp"

namespace tensorgate::detail::ct {
namespace {

bool is_close(const Token& t) { return t.is_op(")") || t.is_op("]") || t.is_op("}"); }
bool is_open(const Token& t) { return t.is_op("(") || t.is_op("[") || t.is_op("{"); }

// Literals that are names: no string, no reference.
bool constant_name(const Token& t) {
  for (const std::string_view n : {"true", "false", "none", "True", "False", "None"})
    if (t.is_name(n)) return true;
  return false;
}

}  // namespace

void Flow::reset() {
  names_.reset();
  built_keys_ = Hit{};
  tag_begin(false);
}

void Flow::commit(Frame& f) {
  f.acc.merge(f.op);
  f.op = Value{};
}

void Flow::token(const Token& t) {
  if (overflow_ > 0) {  // past the depth bound: only the brackets are counted
    if (is_open(t)) ++overflow_;
    if (is_close(t)) --overflow_;
    return;
  }
  const bool first = block_ && tokens_++ == 0;
  if (first && t.kind == TokenKind::name) return statement(t.text);
  if (unescaped_ != kNoName && !t.is_op("(")) names_.escape(unescaped_);
  unescaped_ = kNoName;
  if (!is_close(t)) note_in_frame(t);
  switch (t.kind) {
    case TokenKind::name: on_name(t); break;
    case TokenKind::string:
      here().op.literal = true;
      prev_ = Prev::value;
      callee_ = Callee{};
      break;
    case TokenKind::number:
      prev_ = Prev::value;
      callee_ = Callee{};
      break;
    case TokenKind::op: on_op(t); break;
  }
}

// A token directly inside the innermost bracket: a subscript's literalness, a call's argument.
void Flow::note_in_frame(const Token& t) {
  Frame& f = here();
  if (f.kind == Kind::subscript) {
    f.any = true;
    const bool literal = t.kind == TokenKind::string || t.kind == TokenKind::number || t.is_op(":") ||
                         t.is_op("-") || t.is_op("+");
    if (!literal) f.literal_only = false;
    note_step(f, t);
  }
  if (f.kind != Kind::call && f.kind != Kind::params) return;
  if (t.is_op(",")) return;
  // |map('lower') keeps its operand's parts, |map('replace', ...) makes new strings.
  if (f.makes == Makes::map && f.arg == 0 && f.arg_tokens == 0 && t.kind == TokenKind::string) {
    const Makes m = filter_makes(t.text);
    f.map_keeps = t.whole() && (m == Makes::number || m == Makes::parts);
  }
  ++f.arg_tokens;
}

// A slice's step: none, 1 or -1 keeps the characters in their order or reverses it; any other
// picks them apart, and '_a_'[::2] is '__'.
void Flow::note_step(Frame& f, const Token& t) {
  if (t.is_op(":")) {
    if (f.colons < 3) ++f.colons;
    return;
  }
  if (f.colons < 2) return;
  const bool keeps = (f.step_tokens == 0 && (t.is_op("-") || (t.kind == TokenKind::number && t.unit))) ||
                     (f.step_tokens == 1 && f.step_keeps && t.kind == TokenKind::number && t.unit);
  if (!keeps) f.step_keeps = false;
  if (f.step_tokens < 2) ++f.step_tokens;
}

void Flow::on_name(const Token& t) {
  switch (prev_) {
    case Prev::dot:  // an attribute, or a method if "(" follows
      callee_ = Callee{method_makes(t.text), Callee::Arguments::any};
      prev_ = Prev::value;
      return;
    case Prev::pipe:
      apply_filter(t.text);
      prev_ = Prev::value;
      return;
    case Prev::test:  // x is [not] name: a bool
      if (t.is_name("not")) return;
      callee_ = Callee{Makes::number, Callee::Arguments::nowhere};
      prev_ = Prev::value;
      return;
    default: break;
  }
  if (on_statement_name(t)) return;
  if (constant_name(t)) {
    prev_ = Prev::value;
    callee_ = Callee{};
    return;
  }
  on_reference(t);
}

// A variable: the operand comes from it; a "(" next calls it.
void Flow::on_reference(const Token& t) {
  const std::uint32_t id = names_.id(t.text);
  here().op.ref(id);
  const Makes makes = global_call_makes(t.text);
  callee_ = Callee{makes, makes == Makes::builds ? Callee::Arguments::named : Callee::Arguments::nowhere};
  if (makes == Makes::builds) callee_name_ = std::string(t.text);
  unescaped_ = id;
  prev_ = Prev::value;
}

void Flow::apply_filter(std::string_view name) {
  Frame& f = here();
  const Makes makes = filter_makes(name);
  if (makes == Makes::number) f.op = Value{};
  if (makes == Makes::builds) f.op.built = true;
  callee_ = Callee{makes, Callee::Arguments::nowhere};
}

void Flow::on_op(const Token& t) {
  Frame& f = here();
  if (t.is_op(".")) {
    prev_ = Prev::dot;
    return;
  }
  if (t.is_op("|")) {
    prev_ = Prev::pipe;
    return;
  }
  if (is_close(t)) {
    close();
    prev_ = Prev::value;
    callee_ = Callee{Makes::builds, Callee::Arguments::any};
    return;
  }
  const bool after_value = prev_ == Prev::value;
  prev_ = Prev::op;
  if (t.is_op("(")) return open(after_value ? Kind::call : Kind::group, t.offset);
  if (t.is_op("[")) return open(after_value ? Kind::subscript : Kind::group, t.offset);
  if (t.is_op("{")) return open(Kind::group, t.offset);
  if (t.is_op(",")) return on_comma();
  if (t.is_op("=")) return on_assign();
  commit(f);
  if (t.is_op(":") && f.kind == Kind::subscript) f.slice_or_tuple = true;
  if (t.is_op("~")) f.acc.built = true;
  if (t.is_op("+") || t.is_op("*") || t.is_op("%")) f.acc.arith = true;
}

void Flow::open(Kind kind, std::uint64_t at) {
  if (frames_.size() > max_depth_) {
    ++overflow_;
    here().op.built = true;
    return;
  }
  Frame f;
  f.kind = kind;
  f.at = at;
  // {% macro m(a, b=...) %} and {% call(a) m() %}: parameters, not arguments.
  const bool head = frames_.size() == 1 && ((stmt_ == Stmt::macro_name && kind == Kind::call) ||
                                            (stmt_ == Stmt::call_head && kind == Kind::group));
  if (head) {
    f.kind = Kind::params;
    f.arguments = names_.arguments_of(stmt_ == Stmt::macro_name ? std::string_view(macro_) : "caller");
    stmt_ = Stmt::expression;
  } else if (kind == Kind::call) {
    f.makes = callee_.makes;
    if (callee_.to == Callee::Arguments::named) f.arguments = names_.arguments_of(callee_name_);
    if (callee_.to == Callee::Arguments::any) f.arguments = names_.any_call();
  }
  frames_.push_back(std::move(f));
}

void Flow::close() {
  if (frames_.size() <= 1) return;  // unbalanced: CT.lex
  Frame f = std::move(frames_.back());
  frames_.pop_back();
  if (f.kind == Kind::params) return end_argument(f);
  Value v = f.acc;
  v.merge(f.op);
  Frame& parent = here();
  switch (f.kind) {
    case Kind::group: parent.op.merge(v); break;
    case Kind::subscript:
      judge_key(f, v);
      if (v.may_build()) parent.op.built = true;  // what a built name reaches
      if (f.colons >= 2 && !f.step_keeps) parent.op.built = true;
      break;
    case Kind::call: close_call(f, v); break;
    case Kind::params: break;
  }
}

void Flow::close_call(const Frame& f, const Value& v) {
  Frame& parent = here();
  names_.bind(f.arguments, v);
  switch (f.makes) {
    case Makes::number: break;
    case Makes::parts: parent.op.merge(v); break;
    case Makes::builds: parent.op.built = true; break;
    case Makes::mutates:  // the receiver takes the arguments in
      for (std::uint8_t i = 0; i < parent.op.count; ++i) names_.bind(parent.op.refs[i], v);
      break;
    case Makes::map:
      if (f.map_keeps) parent.op.merge(v);
      else parent.op.built = true;
      break;
  }
}

void Flow::judge_key(const Frame& f, const Value& key) {
  if (!f.any || f.literal_only || f.slice_or_tuple) return;  // a literal, a slice or a tuple: no name
  if (key.may_build()) {
    built_keys_.add(f.at, [] { return std::string("subscripts with a key built at render time"); });
    return;
  }
  names_.use_as_key(key, f.at);
}

Hit Flow::finish() {
  Hit out = built_keys_;
  out.merge(names_.finish());
  return out;
}

}  // namespace tensorgate::detail::ct
