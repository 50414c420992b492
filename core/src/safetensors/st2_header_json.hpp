#pragma once
// ST2: parsing the buffered header (one JSON object, nothing but whitespace after it) into the
// tensor table, with ST3 and ST4 checked on the way (header_handler.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/finding_list.hpp"
#include "safetensors/table_allowance.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/safetensors/summary.hpp"
#include "tensorgate/safetensors/tensor_table.hpp"

namespace tensorgate::detail {

struct ParsedHeader {
  std::shared_ptr<TensorTable> table;
  bool json_ok = false;             // one JSON value followed by whitespace only
  std::uint64_t object_end = 0;     // header position just after the root object
  bool reference_rejects = false;   // valid here, but the reference reader refuses it
  bool budget_refused = false;      // the memory budget refused the table: no verdict
  bool deadline_passed = false;     // the allowance's CPU deadline passed: no verdict
  bool plain = false;               // read by the plain-header fast path (st2_plain_header.hpp)
  std::optional<ArchitectureGuess> architecture;  // guessed on the way (the plain path only)
};

// Which parse reads the header: the plain-header fast path first (falling back to the general
// parse on anything it does not take), or the general parse alone (for the tests and the fuzzer
// that hold the two to the same answer).
enum class HeaderRoute : std::uint8_t { plain_first, general_only };

// Parses and checks all N header bytes at once (ST2, ST3, ST4; STW warnings). Boost.JSON 1.81
// must see the whole header in one write_some: a \u escape split across calls overflows its
// stack buffer (boostorg/json#876).
// The table is charged to `allowance` as it grows, and the parse stops once its deadline passes.
ParsedHeader parse_header(HeaderBuffer header, const Limits& limits, FindingList& findings,
                          TableAllowance& allowance, HeaderRoute route = HeaderRoute::plain_first);

}  // namespace tensorgate::detail
