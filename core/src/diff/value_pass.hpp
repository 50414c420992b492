#pragma once
// --values: every pair's data streamed once through the audit's pair stream (two buffers of
// Limits::diff.chunk_bytes, allocated once), in the order of NEW's files (or of the GGUF side's,
// when rows are permuted), OLD's bytes fetched by tensor.
//
// What is compared: the whole tensor when the shapes agree; the rows in common when only the
// first dimension changed (a resized vocabulary: the rows both have, the first ones); all
// elements in order when the shape changed but not their number; otherwise nothing, and the
// reason why. Rows the converter permuted (q and k of a safetensors/GGUF pair) are compared
// after the permutation, as the audit does.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "match.hpp"

namespace tensorgate::detail::diff {

struct ValuePassResult {
  std::vector<std::optional<ValueDiff>> values;  // per pair of the matching
  std::uint64_t bytes_read = 0;
  std::optional<std::string> io_error;
};

ValuePassResult compare_values(const Side& old_side, const Side& new_side, const Matching& m, const NameMap& map,
                               const DiffLimits& limits);

}  // namespace tensorgate::detail::diff
