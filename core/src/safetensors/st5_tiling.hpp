#pragma once
// ST5: the tiling of the data buffer, and the canonical (STC1) order of a table's tensors.
#include <cstdint>
#include <optional>

#include "common/finding_list.hpp"
#include "tensorgate/safetensors/tensor_table.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate::detail {

// Orders tensors as (dtype, name): the canonical writer's order (STC1).
bool canonical_less(const TensorTable& table, std::uint32_t a, std::uint32_t b);

// ST5 inside the header: sorted by (begin, end), the tensors must start at 0 and each begin
// where the previous ended. Fills the table's data order. Returns the data length the tensors
// cover, or nothing when some entry's offsets are unknown (tiling cannot be established).
std::optional<std::uint64_t> check_tiling(TensorTable& table, FindingList& findings,
                                          std::uint64_t data_start);

// ST5 at the end of the data: `actual` bytes follow the header, the tensors cover `covered`.
void check_data_end(std::uint64_t actual, std::uint64_t covered, std::uint64_t data_start,
                    FindingList& findings);

}  // namespace tensorgate::detail
