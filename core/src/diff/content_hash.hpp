#pragma once
// Renames by content (--values): the tensors still unmatched after names and patterns, of a
// dtype and shape that both sides have among them, are hashed (SHA-256 of their bytes, read in
// chunks of Limits::diff.chunk_bytes, each side in file order); a removed and an added tensor
// with the same dtype, shape and digest, each the only one of its side with them, are one
// tensor renamed. The bytes hashed are bytes no pair reads: every byte is still read once.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "match.hpp"

namespace tensorgate::detail::diff {

struct ContentResult {
  std::vector<Pair> pairs;
  std::uint64_t bytes_read = 0;
  std::optional<std::string> io_error;
};
ContentResult match_by_content(const Side& old_side, const Side& new_side, const Matching& m, const DiffLimits& limits);

}  // namespace tensorgate::detail::diff
