#include "chat_template/analysis.hpp"

#include <array>
#include <utility>

#include "common/printable.hpp"

namespace tensorgate::detail::ct {
namespace {

// Objects Jinja (and Flask) put in every template's globals whose attributes lead to the
// interpreter: cycler.__init__.__globals__, lipsum.__globals__, self._TemplateReference__context,
// config.items(), request.application...
constexpr std::array<std::string_view, 8> kGadgets = {"self", "cycler", "joiner", "namespace",
                                                      "lipsum", "config", "request", "range"};
constexpr std::array<std::string_view, 7> kExpressionKeywords = {"and", "or", "not", "in", "is", "if", "else"};

struct FilterUse {
  std::string_view name;
  std::uint8_t flags;
};
// Jinja's filters that read attributes by name (jinja2.filters: make_attrgetter).
constexpr std::array<FilterUse, 9> kAttributeFilters = {{
    {"selectattr", 1}, {"rejectattr", 1}, {"groupby", 1 | 2}, {"map", 2 | 4}, {"sort", 2},
    {"sum", 2}, {"unique", 2}, {"min", 2}, {"max", 2},
}};

template <std::size_t N>
bool one_of(const Token& t, const std::array<std::string_view, N>& names) {
  if (t.kind != TokenKind::name || !t.whole()) return false;
  for (const std::string_view n : names)
    if (t.text == n) return true;
  return false;
}

bool is_open(const Token& t) { return t.is_op("(") || t.is_op("[") || t.is_op("{"); }
bool is_close(const Token& t) { return t.is_op(")") || t.is_op("]") || t.is_op("}"); }

}  // namespace

void Analysis::reset() {
  internals = attr_filter = subscript = attribute = lex = Hit{};
  frames_.clear();
  frames_overflow_ = 0;
  tag_begin(false, 0);
}

void Analysis::lex_error(std::uint64_t at, std::string_view what) {
  hit(lex, at, [&] { return std::string(what); });
}

void Analysis::tag_begin(bool block, std::uint64_t) {
  block_ = block;
  tokens_in_tag_ = 0;
  frames_.clear();
  frames_overflow_ = 0;
  prev_ = Prev::none;
  prev_op_.clear();
  prev_is_ = prev_is_not_ = prev_filter_kw_ = prev_string_ends_underscore_ = false;
  prev_filter_ = 0;
  gadget_ = run_ = false;
}

void Analysis::tag_end(std::uint64_t at) { tag_begin(false, at); }

void Analysis::token(const Token& t) {
  call_filter_ = std::exchange(prev_filter_, 0);
  call_filter_name_ = prev_filter_name_;
  resolve_gadget(t);
  if (!frames_.empty() && frames_overflow_ == 0 && !is_close(t)) count_in_frame(frames_.back(), t);
  switch (t.kind) {
    case TokenKind::name: on_name(t); break;
    case TokenKind::string: on_string(t); break;
    case TokenKind::number:
      if (!(prev_ == Prev::op && prev_op_ == "*")) run_ = false;
      prev_ = Prev::number;
      break;
    case TokenKind::op: on_op(t); break;
  }
  if (t.kind != TokenKind::name) prev_is_ = prev_is_not_ = prev_filter_kw_ = false;
  if (t.kind != TokenKind::string) prev_string_ends_underscore_ = false;
  ++tokens_in_tag_;
}

// "gadget." "gadget[" "gadget|attr": an attribute walk from a sandbox-escape gadget.
void Analysis::resolve_gadget(const Token& t) {
  if (!gadget_) return;
  if (gadget_stage_ == 0 && t.is_op("|")) {
    gadget_stage_ = 1;
    return;
  }
  gadget_ = false;
  if (gadget_stage_ == 0 && (t.is_op(".") || t.is_op("[")))
    hit(internals, gadget_at_, [&] { return std::string("reaches through " + quoted(gadget_name_ + std::string(t.text)) + ", an attribute of the sandbox-escape gadget " + gadget_name_); });
  else if (gadget_stage_ == 1 && t.is_name("attr"))
    hit(internals, gadget_at_, [&] { return std::string("reaches through " + quoted(gadget_name_ + "|attr") + ", an attribute of the sandbox-escape gadget " + gadget_name_); });
}

void Analysis::on_name(const Token& t) {
  if (t.dunder) hit(internals, t.offset, [&] { return std::string("reads the name " + quoted(t.text) + (t.whole() ? "" : " (cut)")); });
  run_ = false;
  const bool attribute_name = prev_ == Prev::op && prev_op_ == ".";
  const bool filter_name = (prev_ == Prev::op && prev_op_ == "|") || prev_filter_kw_;
  const bool test_name = prev_is_ || prev_is_not_;
  if (filter_name) {
    if (t.is_name("attr")) hit(attr_filter, t.offset, [&] { return std::string("applies |attr"); });
    for (const FilterUse& f : kAttributeFilters)
      if (t.is_name(f.name)) prev_filter_ = f.flags, prev_filter_name_ = f.name;
  } else if (!attribute_name && !test_name && one_of(t, kGadgets)) {
    gadget_ = true;
    gadget_stage_ = 0;
    gadget_at_ = t.offset;
    gadget_name_ = std::string(t.text);
  }
  const bool keyword = !attribute_name && !filter_name && (one_of(t, kExpressionKeywords) || (block_ && tokens_in_tag_ == 0));
  prev_ = keyword ? Prev::keyword : Prev::name;
  prev_is_not_ = keyword && prev_is_ && t.is_name("not");
  prev_is_ = keyword && t.is_name("is");
  prev_filter_kw_ = block_ && tokens_in_tag_ == 0 && t.is_name("filter");  // {% filter name %}
}

void Analysis::on_string(const Token& t) {
  if (t.dunder)
    hit(internals, t.offset, [&] { return std::string("holds the string " + quoted(t.text) + (t.whole() ? "" : " (cut)") + " (escapes undone)"); });
  if (!run_) run_tail_underscore_ = false;
  if (run_ && run_tail_underscore_ && t.first_underscore)
    hit(internals, t.offset, [&] { return std::string("joins string literals into a double underscore (\"..._\" and " + quoted(t.text) + ")"); });
  const bool both_ends = t.length > 0 && t.first_underscore && t.last_underscore;
  if (prev_ == Prev::op && prev_op_ == "*" && both_ends)
    hit(internals, t.offset, [&] { return std::string("repeats " + quoted(t.text) + " into a double underscore"); });
  run_ = true;
  if (t.length > 0) run_tail_underscore_ = t.last_underscore;
  prev_ = Prev::string;
  prev_string_ends_underscore_ = both_ends;
}

void Analysis::on_op(const Token& t) {
  // Joining keeps a run of literals going (a list's or a tuple's elements too, for |join, with
  // or without parentheses; a call's arguments are not one value); anything else computes a
  // value from it.
  const bool in_list = frames_overflow_ == 0 &&
                       (frames_.empty() || (frames_.back().role == Role::group &&
                                            (frames_.back().open == '[' || frames_.back().open == '(')));
  if (!(t.is_op("~") || t.is_op("+") || t.is_op("(") || t.is_op(")") || t.is_op("*") || (t.is_op(",") && in_list)))
    run_ = false;
  if (t.is_op("*") && prev_ == Prev::string && prev_string_ends_underscore_)
    hit(internals, t.offset, [&] { return std::string("repeats a string that begins and ends with \"_\" into a double underscore"); });
  if (is_open(t)) open_frame(t);
  else if (is_close(t)) close_frame();
  prev_ = Prev::op;
  prev_op_ = std::string(t.text);
}

bool Analysis::after_value() const {
  if (prev_ == Prev::name || prev_ == Prev::string || prev_ == Prev::number) return true;
  return prev_ == Prev::op && (prev_op_ == ")" || prev_op_ == "]" || prev_op_ == "}");
}

void Analysis::open_frame(const Token& t) {
  if (frames_overflow_ > 0 || frames_.size() >= max_depth_) {
    ++frames_overflow_;
    return;
  }
  Frame f;
  f.at = t.offset;
  f.open = t.text[0];
  if (t.is_op("[") && after_value()) {
    f.role = Role::subscript;
  } else if (t.is_op("(") && (prev_ == Prev::name || (prev_ == Prev::op && (prev_op_ == ")" || prev_op_ == "]")))) {
    f.role = Role::call;
    f.filter = call_filter_;
    f.filter_name = call_filter_name_;
  }
  frames_.push_back(f);
}

void Analysis::close_frame() {
  if (frames_overflow_ > 0) {
    --frames_overflow_;
    return;
  }
  if (frames_.empty()) return;
  Frame f = frames_.back();
  frames_.pop_back();
  if (f.role == Role::subscript && f.tokens > 0 && !f.literal)
    hit(subscript, f.at, [&] { return std::string("subscripts with a computed argument"); });
  if (f.role == Role::call) finish_argument(f);
}

// A token directly inside the innermost bracket: what it does to a subscript's or a call
// argument's literalness. Brackets inside make either computed.
void Analysis::count_in_frame(Frame& f, const Token& t) {
  if (f.role == Role::subscript) {
    ++f.tokens;
    const bool literal = t.kind == TokenKind::string || t.kind == TokenKind::number || t.is_op(":") ||
                         t.is_op("-") || t.is_op("+");
    if (!literal) f.literal = false;
    return;
  }
  if (f.role != Role::call || f.filter == 0) return;
  if (t.is_op(",")) {
    finish_argument(f);
    ++f.arg;
    f.tokens = f.value_tokens = 0;
    f.first_name = f.first_is_attribute = f.keyword = f.keyword_attribute = f.value_first_attr = false;
    f.value_literal = true;
    return;
  }
  if (f.tokens++ == 0) {
    f.arg_at = t.offset;
    if (t.kind == TokenKind::name) {  // a value, or the name of a keyword argument
      f.first_name = true;
      f.first_is_attribute = t.is_name("attribute");
      f.value_tokens = 1;
      f.value_literal = false;
      return;
    }
  } else if (f.tokens == 2 && f.first_name && t.is_op("=")) {
    f.keyword = true;
    f.keyword_attribute = f.first_is_attribute;
    f.value_tokens = 0;
    f.value_literal = true;
    return;
  }
  if (++f.value_tokens == 1) f.value_first_attr = t.kind == TokenKind::string && t.whole() && t.text == "attr";
  if (t.kind != TokenKind::string) f.value_literal = false;
}

void Analysis::finish_argument(Frame& f) {
  if (f.tokens == 0 || f.filter == 0) return;
  const bool literal = f.value_tokens > 0 && f.value_literal;
  const auto filter = [&] { return std::string(f.filter_name); };
  if (f.keyword) {
    if (f.keyword_attribute && (f.filter & kAttributeKw) && !literal)
      hit(attribute, f.arg_at, [&] { return std::string("gives " + filter() + " a computed attribute="); });
    return;
  }
  if (f.arg != 0) return;
  if ((f.filter & kFirstArg) && !literal) hit(attribute, f.arg_at, [&] { return std::string("gives " + filter() + " a computed attribute name"); });
  if ((f.filter & kMapAttr) && f.value_tokens == 1 && f.value_first_attr) hit(attr_filter, f.arg_at, [&] { return std::string("applies attr through map('attr', ...)"); });
}

}  // namespace tensorgate::detail::ct
