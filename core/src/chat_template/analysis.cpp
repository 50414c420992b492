// Analysis: the token loop, names, strings and their joins, gadgets, brackets. The arguments of
// filters that read attributes and str.format are analysis_filters.cpp; subscripts flow.cpp.
#include "chat_template/analysis.hpp"

#include <array>
#include <utility>

#include "chat_template/analysis_filters.hpp"
#include "chat_template/internal_names.hpp"
#include "common/printable.hpp"

namespace tensorgate::detail::ct {
namespace {

// Objects Jinja (and Flask) put in every template's globals whose attributes lead to the
// interpreter: cycler.__init__.__globals__, lipsum.__globals__, self._TemplateReference__context,
// config.items(), request.application...
constexpr std::array<std::string_view, 8> kGadgets = {"self", "cycler", "joiner", "namespace",
                                                      "lipsum", "config", "request", "range"};
constexpr std::array<std::string_view, 7> kExpressionKeywords = {"and", "or", "not", "in", "is", "if", "else"};

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
  internals = attr_filter = attribute = str_format = subscript = lex = Hit{};
  frames_.clear();
  frames_overflow_ = 0;
  flow_.reset();
  tag_begin(false, 0);
}

void Analysis::lex_error(std::uint64_t at, std::string_view what) {
  lex.add(at, [&] { return std::string(what); });
}

void Analysis::tag_begin(bool block, std::uint64_t) {
  block_ = block;
  tokens_in_tag_ = 0;
  frames_.clear();
  frames_overflow_ = 0;
  prev_ = Prev::none;
  prev_op_.clear();
  prev_is_ = prev_is_not_ = prev_filter_kw_ = prev_string_ends_underscore_ = false;
  prev_filter_ = nullptr;
  gadget_ = run_ = format_pending_ = false;
  prev_receiver_ = Receiver::computed;
  flow_.tag_begin(block);
}

void Analysis::tag_end(std::uint64_t at) {
  flow_.tag_end();
  tag_begin(false, at);
}

void Analysis::token(const Token& t) {
  call_filter_ = std::exchange(prev_filter_, nullptr);
  resolve_gadget(t);
  resolve_format(t);
  if (!frames_.empty() && frames_overflow_ == 0 && !is_close(t)) count_in_frame(frames_.back(), t);
  const Receiver receiver = prev_receiver_;
  prev_receiver_ = Receiver::computed;
  switch (t.kind) {
    case TokenKind::name: on_name(t); break;
    case TokenKind::string:
      // A literal alone: what "." after it reaches (adjacent literals are one string, put together).
      if (prev_ != Prev::string) prev_receiver_ = t.format_access ? Receiver::reading_literal : Receiver::literal;
      on_string(t);
      break;
    case TokenKind::number:
      if (!(prev_ == Prev::op && prev_op_ == "*")) run_ = false;
      prev_ = Prev::number;
      break;
    case TokenKind::op:
      if (t.is_op(".")) dot_receiver_ = receiver;
      on_op(t);
      break;
  }
  if (t.kind != TokenKind::name) prev_is_ = prev_is_not_ = prev_filter_kw_ = false;
  if (t.kind != TokenKind::string) prev_string_ends_underscore_ = false;
  ++tokens_in_tag_;
  flow_.token(t);
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
    internals.add(gadget_at_, [&] { return std::string("reaches through " + quoted(gadget_name_ + std::string(t.text)) + ", an attribute of the sandbox-escape gadget " + gadget_name_); });
  else if (gadget_stage_ == 1 && t.is_name("attr"))
    internals.add(gadget_at_, [&] { return std::string("reaches through " + quoted(gadget_name_ + "|attr") + ", an attribute of the sandbox-escape gadget " + gadget_name_); });
}

void Analysis::on_name(const Token& t) {
  run_ = false;
  const bool attribute_name = prev_ == Prev::op && prev_op_ == ".";
  // A bare name resolves in the render context (Context.resolve_or_missing), never in Python:
  // {{ __import__ }} is undefined, and real templates name macros __render_tool. As an
  // attribute it is Python's.
  if (t.dunder && attribute_name)
    internals.add(t.offset, [&] { return std::string("reads the attribute " + quoted(t.text) + (t.whole() ? "" : " (cut)")); });
  const bool filter_name = (prev_ == Prev::op && prev_op_ == "|") || prev_filter_kw_;
  const bool test_name = prev_is_ || prev_is_not_;
  if (attribute_name && t.whole() && is_internal_name(t.text))
    internals.add(t.offset, [&] { return std::string("reads the attribute " + quoted(t.text) + ", an interpreter internal"); });
  if (attribute_name && (t.is_name("format") || t.is_name("format_map"))) {
    format_pending_ = true;
    format_receiver_ = dot_receiver_;
    format_at_ = t.offset;
  }
  if (filter_name) {
    prev_filter_ = attribute_filter(t);
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
    internals.add(t.offset, [&] { return std::string("holds the string " + quoted(t.text) + (t.whole() ? "" : " (cut)") + " (escapes undone)"); });
  if (t.internal_name)
    internals.add(t.offset, [&] { return std::string("holds the string " + quoted(t.text) + (t.whole() ? "" : " (cut)") + ", which names an interpreter internal"); });
  if (!run_) run_tail_underscore_ = false;
  if (run_ && run_tail_underscore_ && t.first_underscore)
    internals.add(t.offset, [&] { return std::string("joins string literals into a double underscore (\"..._\" and " + quoted(t.text) + ")"); });
  const bool both_ends = t.length > 0 && t.first_underscore && t.last_underscore;
  if (prev_ == Prev::op && prev_op_ == "*" && both_ends)
    internals.add(t.offset, [&] { return std::string("repeats " + quoted(t.text) + " into a double underscore"); });
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
    internals.add(t.offset, [&] { return std::string("repeats a string that begins and ends with \"_\" into a double underscore"); });
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
  }
  frames_.push_back(std::move(f));
}

void Analysis::close_frame() {
  if (frames_overflow_ > 0) {
    --frames_overflow_;
    return;
  }
  if (frames_.empty()) return;
  Frame f = std::move(frames_.back());
  frames_.pop_back();
  if (f.role == Role::call) finish_argument(f);
  if (f.format_name) {  // x['format'](...), x|attr('format')(...)
    format_pending_ = true;
    format_receiver_ = Receiver::computed;
    format_at_ = f.at;
  }
}

}  // namespace tensorgate::detail::ct
