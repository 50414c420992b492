// Analysis: the arguments of the filters that read attributes by name (analysis_filters.hpp),
// and calls of str.format.
#include "chat_template/analysis_filters.hpp"

#include <array>

#include "chat_template/analysis.hpp"

namespace tensorgate::detail::ct {
namespace {

using K = AttributeFilter::Kind;
constexpr std::array<AttributeFilter, 11> kFilters = {{
    {"selectattr", 0, false, K::attribute},
    {"rejectattr", 0, false, K::attribute},
    {"groupby", 0, true, K::attribute},
    {"sort", 2, true, K::attribute},
    {"unique", 1, true, K::attribute},
    {"min", 1, true, K::attribute},
    {"max", 1, true, K::attribute},
    {"sum", 0, true, K::attribute},
    {"join", 1, true, K::attribute},
    {"map", -1, true, K::map},
    {"attr", 0, false, K::attr},
}};

bool is_format(std::string_view name) { return name == "format" || name == "format_map"; }

}  // namespace

const AttributeFilter* attribute_filter(std::string_view name) {
  for (const AttributeFilter& f : kFilters)
    if (f.name == name) return &f;
  return nullptr;
}

const AttributeFilter* attribute_filter(const Token& t) {
  return t.kind == TokenKind::name && t.whole() ? attribute_filter(t.text) : nullptr;
}

// A token directly inside the innermost bracket: a subscript's key, or a piece of the current
// argument of a filter that reads attributes. Brackets inside make an argument computed.
void Analysis::count_in_frame(Frame& f, const Token& t) {
  if (f.role == Role::subscript) {
    f.format_name = ++f.tokens == 1 && t.kind == TokenKind::string && t.whole() && is_format(t.text);
    return;
  }
  if (f.role != Role::call || f.filter == nullptr) return;
  if (t.is_op(",")) {
    finish_argument(f);
    f.tokens = f.value_tokens = f.value_strings = f.value_numbers = 0;
    f.first_name = f.keyword = f.keyword_attribute = f.splat = f.value_minus = f.value_other = false;
    f.value_text.clear();
    return;
  }
  if (f.tokens++ == 0) {
    f.arg_at = t.offset;
    if (t.is_op("*") || t.is_op("**")) {  // *args, **kwargs: any argument, attribute= included
      f.splat = true;
      return;
    }
    if (t.kind == TokenKind::name) {  // a value, or the name of a keyword argument
      f.first_name = true;
      f.keyword_attribute = t.is_name("attribute");
      f.value_tokens = 1;
      f.value_other = true;
      return;
    }
  } else if (f.tokens == 2 && f.first_name && t.is_op("=")) {
    f.keyword = true;
    f.value_tokens = 0;
    f.value_other = false;
    return;
  }
  ++f.value_tokens;
  if (t.kind == TokenKind::string) {
    f.value_text = f.value_strings++ == 0 && t.whole() ? std::string(t.text) : std::string();
  } else if (t.kind == TokenKind::number) {
    ++f.value_numbers;
  } else if (t.is_op("-") && f.value_tokens == 1) {
    f.value_minus = true;
  } else {
    f.value_other = true;
  }
}

void Analysis::finish_argument(Frame& f) {
  if (f.tokens == 0 || f.filter == nullptr) return;
  // A literal: string literals (adjacent ones are one), or a number (an item index).
  const bool literal = f.value_tokens > 0 && !f.value_other &&
                       ((f.value_strings > 0 && f.value_numbers == 0 && !f.value_minus) ||
                        (f.value_strings == 0 && f.value_numbers == 1));
  const std::string filter(f.filter->name);
  if (f.splat) {
    Hit& h = f.filter->kind == K::attr ? attr_filter : attribute;
    h.add(f.arg_at, [&] { return "passes arguments to " + filter + " by * or **, which can name any attribute"; });
    return;
  }
  if (f.keyword) {
    if (f.keyword_attribute && f.filter->keyword && !literal)
      attribute.add(f.arg_at, [&] { return "gives " + filter + " an attribute= that is not a literal"; });
    return;
  }
  judge_positional(f, literal);
  ++f.positional;
}

void Analysis::judge_positional(Frame& f, bool literal) {
  const AttributeFilter& a = *f.filter;
  const std::uint32_t at = f.positional - f.base;
  if (a.kind == K::map && at == 0) {
    // map('name', ...): the filter applied to each item, with the other arguments.
    if (!literal || f.value_text.empty()) {
      attr_filter.add(f.arg_at, [] { return std::string("gives map a filter name that is not a string literal (it may be 'attr')"); });
      f.filter = nullptr;
      return;
    }
    f.filter = attribute_filter(f.value_text);
    f.base = f.positional + 1;
    return;
  }
  if (a.kind == K::attr && at == 0) {
    if (!literal) attr_filter.add(f.arg_at, [] { return std::string("applies attr with a name that is not a string literal"); });
    else if (is_format(f.value_text)) f.format_name = true;
    return;
  }
  if (a.kind == K::attribute && a.position >= 0 && at == static_cast<std::uint32_t>(a.position) && !literal)
    attribute.add(f.arg_at, [&] {
      return "gives " + std::string(a.name) + " an attribute name that is not a literal (argument " + std::to_string(at + 1) + ")";
    });
}

// The token after x.format, x['format'] or x|attr('format'): "(" calls it.
void Analysis::resolve_format(const Token& t) {
  if (!format_pending_) return;
  format_pending_ = false;
  if (!t.is_op("(") || format_receiver_ == Receiver::literal) return;
  if (format_receiver_ == Receiver::reading_literal)
    str_format.add(format_at_, [] { return std::string("calls str.format with a format string whose fields read attributes or items"); });
  else
    str_format.add(format_at_, [] { return std::string("calls str.format on a format string that is not one string literal"); });
}

}  // namespace tensorgate::detail::ct
