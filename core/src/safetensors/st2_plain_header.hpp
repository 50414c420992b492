#pragma once
// The plain-header fast path: a header written the way writers write it, read without a general
// JSON parser.
//
// Why: on a 100,000-tensor header, Boost.JSON's parser and the handler's event routing were most
// of the validator's time, three times a parse that does nothing (bench/header_bench.cpp). Real
// headers are one shape: an object of entries {"dtype":..,"shape":[..],"data_offsets":[..]} and
// perhaps a "__metadata__" map of strings, with no whitespace, escapes or non-ASCII names.
//
// "Plain" is that shape and nothing else, and every entry valid: no whitespace inside the
// object; keys and strings of printable ASCII without escapes (0x20-0x7E, no backslash); each
// entry exactly the three fields once, in any order, a known dtype, integers of at most 18
// digits, begin <= end, and the size rule met without a reference difference; at most one
// "__metadata__", a non-empty map of at most kMaxPlainMetadata distinct string values. On
// anything else the scan stops with `not_plain` and the caller clears the table and runs the
// general parse from the first byte, so an unusual header costs at most one extra partial scan
// and is judged by the one parser that words every finding. The scan itself reports nothing:
// a plain header's only findings are its duplicate names (found after either parse) and what
// follows the object, both checked by the caller. tests/safetensors_plain_header_test.cpp and
// fuzz/header_route_fuzzer.cpp hold the two parses to the same table and findings.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/duplicate_names.hpp"
#include "safetensors/table_allowance.hpp"
#include "safetensors/table_builder.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate::detail {

inline constexpr std::size_t kMaxPlainDims = 64;      // more: the general parse
inline constexpr std::size_t kMaxPlainMetadata = 64;  // metadata keys, compared pairwise
// The general parse needs this depth for root, entry and shape; a lower limit is its to report.
inline constexpr std::uint32_t kPlainDepth = 3;
// Entries between two looks at the deadline: about as often as the general parse looks.
inline constexpr std::size_t kPlainEntriesPerPoll = 1024;

struct PlainScan {
  enum class Outcome : std::uint8_t {
    accepted,   // the whole object was plain: the table is complete
    not_plain,  // something was not: clear the table and parse in general
    stopped,    // the allowance refused memory or its deadline passed: no verdict
  };
  Outcome outcome = Outcome::not_plain;
  std::size_t object_end = 0;  // header position just after the root object (when accepted)
  ArchitectureGuess architecture;  // from the names, guessed while they were at hand
};

// Scans `text` (the header: builder.header()) into `builder` and `names`, charging `allowance`
// as the table grows and asking its deadline every kPlainEntriesPerPoll entries.
PlainScan scan_plain_header(std::string_view text, TableBuilder& builder, DuplicateNames& names,
                            TableAllowance& allowance);

}  // namespace tensorgate::detail
