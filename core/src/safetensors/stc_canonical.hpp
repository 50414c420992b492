#pragma once
// STC1-STC4: the canonical form of a valid file.
#include <cstdint>

#include "common/finding_list.hpp"
#include "tensorgate/safetensors/tensor_table.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate::detail {

// Compares a valid file's header with what the canonical writer makes of its content and adds
// an info finding for each STC rule the bytes break. Returns true when none is broken. The
// canonical text is generated piecewise and compared in place: no second copy of the header.
bool check_canonical(const TensorTable& table, std::uint64_t object_end, FindingList& findings);

}  // namespace tensorgate::detail
