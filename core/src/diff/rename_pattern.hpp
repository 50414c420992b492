#pragma once
// Renames from the headers alone: a removed and an added tensor of the same dtype and shape
// whose names differ in one dot-separated component of two or more ("mlp.fc1.weight" ->
// "mlp.up_proj.weight", "transformer.h.0..." -> "model.h.0...") or share a suffix of at least two components after
// different prefixes ("model.decoder.layers.0.fc1.weight" -> "model.layers.0.fc1.weight"). A
// pair is made only when each tensor is the other's only candidate, so a pattern that fits
// many tensors names none of them.
//
// Linear in the names: each name gives one key per component (seeded hashes of the name with a
// component left out, and of each suffix); keys are sorted, and only a key shared by exactly one
// removed and one added tensor makes a candidate, which is then checked on the names themselves
// (a colliding hash can only hide a rename, never invent one).
#include <optional>
#include <string>
#include <vector>

#include "match.hpp"

namespace tensorgate::detail::diff {

// The pairs found, or nothing and why not (more unmatched tensors than the limit allows).
struct PatternResult {
  std::vector<Pair> pairs;
  std::optional<std::string> skipped;
};
PatternResult match_by_pattern(const Side& old_side, const Side& new_side, const Matching& m, const DiffLimits& limits);

}  // namespace tensorgate::detail::diff
