#pragma once
// Jinja's filters that read attributes by a name they are given (jinja2/filters.py: each passes
// it to make_attrgetter or make_multi_attrgetter, which split it on "." (and "," for sort) and
// look each part up with Environment.getitem: an item, else the attribute), and where that name
// is: a positional argument (counted after the value filtered) and/or attribute=.
//   selectattr(attr, ...), rejectattr(attr, ...), groupby(attribute, ...), sort(reverse,
//   case_sensitive, attribute), unique(case_sensitive, attribute), min/max(case_sensitive,
//   attribute), sum(attribute, start), join(d, attribute), map(attribute=...) (prepare_map, only
//   with no positional argument);
// attr(name) reads getattr(obj, name) (do_attr), and map(name, ...) applies the filter `name`
// to each item with the other arguments, so map('attr', x), map('sort', attribute=x) read
// attributes too.
#include <cstdint>
#include <string_view>

#include "chat_template/token.hpp"

namespace tensorgate::detail::ct {

struct AttributeFilter {
  enum class Kind : std::uint8_t { attribute, attr, map };
  std::string_view name;
  std::int8_t position;  // the positional argument that names the attribute; -1 none
  bool keyword;          // attribute= names it
  Kind kind;
};

// The filter a name token names, if it reads attributes.
const AttributeFilter* attribute_filter(const Token& t);
const AttributeFilter* attribute_filter(std::string_view name);

}  // namespace tensorgate::detail::ct
