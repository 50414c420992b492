#pragma once
// Which tensor of OLD is which of NEW: by name; across formats (one side safetensors, the other
// GGUF) through the audit's name map; then renames by name pattern (rename_pattern.hpp) and,
// with --values, by content (content_hash.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "pairing/arch_table.hpp"
#include "side.hpp"

namespace tensorgate::detail::diff {

struct Pair {
  std::size_t old_index = 0, new_index = 0;  // in the sides' tensor lists
  MatchedBy by = MatchedBy::name;
  pairing::RowOrder order = pairing::RowOrder::as_is;  // name map: how the converter moved the rows
};

struct Matching {
  std::vector<Pair> pairs;
  std::vector<std::size_t> removed, added;  // unmatched, in each side's order
};

// The name map between the sides, when one is all safetensors and the other all GGUF: the
// architecture of the safetensors side's config.json, else of the GGUF's general.architecture.
struct NameMap {
  const pairing::ArchSpec* arch = nullptr;
  bool old_is_safetensors = false;  // which side's names are mapped to GGUF names
  // The q/k permutation's head counts (config.json, else the GGUF's metadata); 0: unknown.
  std::uint64_t q_heads = 0, k_heads = 0;
};
NameMap choose_name_map(const Side& old_side, const Side& new_side, const DirectoryLimits& limits);

// Pairs by name and name map; what is left is removed or added.
Matching match_by_name(const Side& old_side, const Side& new_side, const NameMap& map);

// Moves the pairs found among the unmatched (by pattern or content) from the leftovers.
void take_pairs(Matching& m, const std::vector<Pair>& found);

}  // namespace tensorgate::detail::diff
