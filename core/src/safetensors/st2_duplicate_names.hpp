#pragma once
// ST2: the tensor names a header holds twice, reported once the parse is over (both parses, the
// general one and the plain-header fast path, collect names into a DuplicateNames as they go).
#include "common/duplicate_names.hpp"
#include "common/finding_list.hpp"
#include "safetensors/table_builder.hpp"

namespace tensorgate::detail {

// Flags every later record of a name already seen (TensorTable::kDuplicate) and reports it
// (ST2.duplicate-key, and STW.reference-differs: the reference keeps the last). Consumes `names`.
void report_duplicate_names(DuplicateNames& names, TableBuilder& table, FindingList& findings);

}  // namespace tensorgate::detail
