#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorgate/safetensors/dtype.hpp"
#include "tensorgate/safetensors/tensor_table.hpp"

namespace tensorgate {

struct DtypeTotals {
  Dtype dtype;
  std::uint64_t tensors = 0;
  std::uint64_t parameters = 0;  // a scalar counts 1, a zero-size tensor 0
  std::uint64_t bytes = 0;
};

// What a person or a hub page wants to know about a safetensors file. Totals saturate at
// 2^64-1 (only reachable by files larger than any disk).
struct SafetensorsSummary {
  std::uint64_t header_length = 0;  // N
  std::uint64_t data_length = 0;    // bytes after 8 + N that the tensors cover
  std::uint64_t tensor_count = 0;
  std::uint64_t parameters = 0;
  std::uint64_t bytes = 0;
  std::vector<DtypeTotals> by_dtype;  // canonical dtype order, dtypes present only
  // The metadata map, file order: read from the table (no copy, so a 100 MB value or six million
  // keys cost nothing beyond the header that holds them).
  std::size_t metadata_size() const { return tensors ? tensors->metadata_size() : 0; }
  std::pair<std::string_view, std::string_view> metadata(std::size_t i) const { return tensors->metadata(i); }
  std::optional<std::string> architecture;  // inferred from tensor names
  std::optional<std::uint64_t> layers;      // inferred from tensor names
  std::optional<Version> min_reference_version;  // unset: no reference version loads it
  std::shared_ptr<const TensorTable> tensors;    // the inventory, header order
};

// Architecture and layer count from tensor names alone ("model.layers.31.mlp.up_proj.weight").
struct ArchitectureGuess {
  std::optional<std::string> architecture;
  std::optional<std::uint64_t> layers;
};
ArchitectureGuess guess_architecture(const TensorTable& table);

}  // namespace tensorgate
