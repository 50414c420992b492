#pragma once
// Pairs the source tensors with the GGUF's through the architecture table: the pairs to
// compare, the generated tensors to check, and what is left over on either side.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "context.hpp"

namespace tensorgate::detail::audit {

struct SourceTensor {
  const AuditSource* file = nullptr;
  TensorView view;
  std::uint64_t position = 0;  // where its bytes start in the file: 8 + N + begin
};

enum class EntryKind : std::uint8_t { pair, generated, unexplained };

struct PlanEntry {
  EntryKind kind = EntryKind::pair;
  std::size_t gguf = 0;                 // index in the GGUF tensor table
  std::optional<SourceTensor> source;   // pairs
  RowOrder order = RowOrder::as_is;     // pairs
  const GeneratedRule* generated = nullptr;
};

struct LeftOver {
  SourceTensor source;
  std::string gguf;  // the name it should have had; empty when the table does not map it
};

struct Plan {
  std::vector<PlanEntry> entries;  // every GGUF tensor, in data order (the order it is read)
  std::vector<LeftOver> missing;   // mapped source tensors the GGUF lacks, source order
  std::vector<LeftOver> unmapped;  // source tensors the table does not map
};

Plan make_plan(AuditContext& ctx);

}  // namespace tensorgate::detail::audit
