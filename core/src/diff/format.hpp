#pragma once
// What the diff's text and markdown share (numbers with thousands separators: common/number_text.hpp): a tensor as
// "BF16 [128256, 2048]", the sentence that says what --values found, and the headline counts.
#include <string>
#include <string_view>

#include "common/number_text.hpp"
#include "tensorgate/diff.hpp"

namespace tensorgate::detail::diff {

// "+524,288", "-12", "+0"
std::string signed_change(std::uint64_t before, std::uint64_t after);
// "BF16 [128256, 2048]"
std::string tensor_text(const DiffTensor& t);
// "shape, values"
std::string kinds_text(ChangeSet kinds);
// "identical", "12.5% of 4,096 elements changed, largest difference 0.0039 (relative 0.5)", ...
std::string values_text(const ValueDiff& v);
// "1 added, 2 shape, 1 values" (the kinds that occurred), or "none".
std::string counts_text(const DiffReport& r);
// "3 tensors changed, 251 unchanged" and how they were compared.
std::string headline(const DiffReport& r);
// The gate's verdict: "passed (fails on shape, dtype)", "FAILED on shape (fails on shape)", ...
std::string gate_text(const DiffReport& r);
// The name of a change's tensor: "name", or "old -> new" for a rename or a name-map pair.
std::string change_name(const TensorChange& c);

}  // namespace tensorgate::detail::diff
