#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tensorgate/safetensors/dtype.hpp"
#include "tensorgate/safetensors/tensor_table.hpp"
#include "tensorgate/summary.hpp"

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
  // Once the table is dropped (drop_tensors), from the copy kept of it.
  std::size_t metadata_size() const { return tensors ? tensors->metadata_size() : kept_metadata.size(); }
  std::pair<std::string_view, std::string_view> metadata(std::size_t i) const {
    if (tensors) return tensors->metadata(i);
    return {kept_metadata[i].first, kept_metadata[i].second};
  }
  // Frees the inventory and the header text it points into (a long list checked with
  // --no-tensors holds summaries, not tables) and keeps a copy of the metadata, which every
  // report shows.
  void drop_tensors() {
    if (!tensors) return;
    kept_metadata.clear();
    kept_metadata.reserve(tensors->metadata_size());
    for (std::size_t i = 0; i < tensors->metadata_size(); ++i) {
      const auto [k, v] = tensors->metadata(i);
      kept_metadata.emplace_back(std::string(k), std::string(v));
    }
    tensors.reset();
  }
  std::optional<std::string> architecture;  // inferred from tensor names
  std::optional<std::uint64_t> layers;      // inferred from tensor names
  std::optional<Version> min_reference_version;  // unset: no reference version loads it
  std::shared_ptr<const TensorTable> tensors;    // the inventory, header order
  std::vector<std::pair<std::string, std::string>> kept_metadata;  // set by drop_tensors() only
};
// How the reports write it (core/src/safetensors/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const SafetensorsSummary*);

// Architecture and layer count from tensor names alone ("model.layers.31.mlp.up_proj.weight").
struct ArchitectureGuess {
  std::optional<std::string> architecture;
  std::optional<std::uint64_t> layers;
};

// The same guess made one name at a time, in header order, while the names are at hand (the
// plain-header scan feeds it: on a large header a second pass over the names was a tenth of
// the validator's time). A name's text must outlive the guesser.
class ArchitectureGuesser {
 public:
  ArchitectureGuesser();
  void add(std::string_view name);
  ArchitectureGuess result() const;

 private:
  std::size_t best_;               // the most specific marker seen so far (past the last: none)
  std::string_view layer_prefix_;  // "<...>.<container>.<index>." of the last name in a layer
  std::uint64_t prefix_layer_ = 0;
  std::optional<std::uint64_t> layers_;
};

ArchitectureGuess guess_architecture(const TensorTable& table);

}  // namespace tensorgate
