#pragma once
// Duplicate tensor names, found after the header is parsed rather than while it streams by.
//
// Why not a hash set during the parse: one insert per tensor into a table of a few MB is a
// cache miss per tensor, which was a quarter of the validator's time on a 100,000-tensor
// header. Here each name leaves an 8-byte key (32-bit hash, record index) in a vector written in
// order; one radix sort groups equal hashes, and only names that share a hash are compared.
// The cost is O(n) plus O(k log k) string comparisons for a group of k names with one hash, so
// names built to collide cannot make it quadratic.
#include <cstdint>
#include <vector>

#include "safetensors/table_builder.hpp"

namespace tensorgate::detail {

class DuplicateNames {
 public:
  explicit DuplicateNames(std::size_t expected) { keys_.reserve(expected); }

  // Records that record `index` is named `name`.
  void add(std::uint32_t index, std::string_view name);

  // The records whose name an earlier record already has, in ascending order. Consumes the keys.
  std::vector<std::uint32_t> later_duplicates(const TableBuilder& table);

 private:
  std::vector<std::uint64_t> keys_;  // hash << 32 | record index, in record order
};

}  // namespace tensorgate::detail
