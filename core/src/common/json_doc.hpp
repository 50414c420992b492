#pragma once
// The one reader of small JSON documents read whole (config.json, an index, a /v1/check-model
// body and the reports it holds): parsed into a Boost.JSON DOM after a first pass that refuses
// duplicate keys (the DOM would keep the last one silently).
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "tensorgate/memory_budget.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail {

struct JsonDoc {
  std::optional<boost::json::object> object;  // set when the text is one valid JSON object
  std::string error;                          // why not, otherwise
  bool budget_refused = false;                // the memory budget refused the DOM: no verdict
  std::optional<std::uint64_t> error_byte;    // where the text stops being JSON, when it does
};

// With a budget, the DOM's memory (and the duplicate-key pass's) is charged to it as it grows,
// and stays charged while the object lives: a DOM costs up to ~25x its text ([0,0,...]), and
// the parser's value stack about as much again while it parses (charged as the high-water mark).
JsonDoc parse_json_object(std::string_view text, const DirectoryLimits& limits, MemoryBudget* budget = nullptr);

// A positive integer field, or nothing (absent, negative, fractional, not a number).
std::optional<std::uint64_t> positive_integer(const boost::json::object& o, std::string_view key);
std::optional<std::string> string_field(const boost::json::object& o, std::string_view key);

}  // namespace tensorgate::detail
