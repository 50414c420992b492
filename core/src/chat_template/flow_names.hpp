#pragma once
// What Jinja's filters, str/list/dict methods and globals make of their operand, for the
// subscript check (flow.hpp): a number, the operand's own parts (an element, a substring, the
// value itself: no string the template did not already have), or a new string. Anything not
// listed (tojson, string, replace, format, join, a macro's output, a custom filter) may be a new
// string. Substrings and case changes never put two underscores together that were not together
// already (no character maps to "_" by case), so they keep the operand's parts.
#include <array>
#include <cstdint>
#include <string_view>

namespace tensorgate::detail::ct {

enum class Makes : std::uint8_t {
  number,   // the result is a number or a bool: the operand is gone
  parts,    // elements, substrings or the value itself, and the arguments' parts
  builds,   // possibly a new string
  mutates,  // list.append and the like: the receiver takes the arguments in
  map,      // |map: parts for attribute= or a filter that keeps parts, else builds
};

template <std::size_t N>
constexpr bool listed(std::string_view name, const std::array<std::string_view, N>& names) {
  for (const std::string_view n : names)
    if (name == n) return true;
  return false;
}

inline constexpr std::array<std::string_view, 7> kNumberFilters = {"length", "count", "int", "float", "abs", "round",
                                                                   "wordcount"};
inline constexpr std::array<std::string_view, 27> kPartsFilters = {
    "first", "last",  "list", "sort",  "unique", "reverse", "selectattr", "rejectattr", "select",
    "reject", "dictsort", "items", "trim", "lower", "upper", "title", "capitalize", "default",
    "d", "min", "max", "safe", "e", "escape", "batch", "slice", "attr"};

constexpr Makes filter_makes(std::string_view name) {
  if (listed(name, kNumberFilters)) return Makes::number;
  if (listed(name, kPartsFilters) || name == "groupby" || name == "sum" || name == "random" || name == "forceescape")
    return Makes::parts;
  if (name == "map") return Makes::map;
  return Makes::builds;
}

inline constexpr std::array<std::string_view, 5> kMutatingMethods = {"append", "extend", "insert", "update",
                                                                     "setdefault"};
inline constexpr std::array<std::string_view, 24> kPartsMethods = {
    "get", "items", "keys", "values", "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "split",
    "rsplit", "splitlines", "startswith", "endswith", "copy", "pop", "index", "count", "find", "rfind", "isdigit",
    "isspace"};

constexpr Makes method_makes(std::string_view name) {
  if (listed(name, kMutatingMethods)) return Makes::mutates;
  if (listed(name, kPartsMethods)) return Makes::parts;
  return Makes::builds;
}

// Globals: range() makes numbers, namespace() and dict() hold their arguments.
constexpr Makes global_call_makes(std::string_view name) {
  if (name == "range") return Makes::number;
  if (name == "namespace" || name == "dict") return Makes::parts;
  return Makes::builds;
}

}  // namespace tensorgate::detail::ct
