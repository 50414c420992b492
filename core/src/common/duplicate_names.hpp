#pragma once
// Duplicate tensor names (ST2 in safetensors, GG4 in GGUF), found after the names have streamed
// by rather than while they do.
//
// Why not a hash set during the parse: one insert per tensor into a table of a few MB is a
// cache miss per tensor, which was a quarter of the safetensors validator's time on a
// 100,000-tensor header and 29% of the GGUF validator's on 1,000,000 tensor infos. Here each name leaves an 8-byte key (32-bit hash, record index) in a vector written in
// order; one radix sort groups equal hashes, and only names that share a hash are compared.
// The cost is O(n) plus O(k log k) string comparisons for a group of k names with one hash, so
// names built to collide cannot make it quadratic.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace tensorgate::detail {

class DuplicateNames {
 public:
  DuplicateNames() = default;
  explicit DuplicateNames(std::size_t expected) { reserve(expected); }
  // Room for `expected` names in one block, on huge pages where it spans one (common/huge_pages.hpp).
  void reserve(std::size_t expected);

  // Records that record `index` is named `name`.
  void add(std::uint32_t index, std::string_view name);

  // The records whose name an earlier record already has, in ascending order; `name_of` gives
  // a record's name again (called only for names that share a hash). Consumes the keys.
  using NameOf = std::function<std::string_view(std::uint32_t)>;
  std::vector<std::uint32_t> later_duplicates(const NameOf& name_of);

  // Bytes each name costs here: its key, and its place in the sort's scratch buffer.
  static constexpr std::size_t kBytesPerName = 2 * sizeof(std::uint64_t);

 private:
  std::vector<std::uint64_t> keys_;  // hash << 32 | record index, in record order
};

}  // namespace tensorgate::detail
