#include "savedmodel/ops.hpp"

#include <algorithm>
#include <iterator>

namespace tensorgate::detail::savedmodel {
namespace {

constexpr std::string_view kRegisteredOps[] = {
#define TG_TF_OP(name) name,
#include "savedmodel/tf_ops.def"
#undef TG_TF_OP
};
// The generator writes the names sorted: a binary search finds one.
static_assert(std::is_sorted(std::begin(kRegisteredOps), std::end(kRegisteredOps)), "tf_ops.def must be sorted");

constexpr DangerousOp kDangerousOps[] = {
#define TG_TF_DANGEROUS(op, when, reason) {op, DangerWhen::when, reason},
#include "savedmodel/dangerous_ops.def"
#undef TG_TF_DANGEROUS
};

}  // namespace

bool is_registered_op(std::string_view op) {
  return op.starts_with('_') || std::binary_search(std::begin(kRegisteredOps), std::end(kRegisteredOps), op);
}

const DangerousOp* find_dangerous_op(std::string_view op) {
  for (const DangerousOp& d : kDangerousOps)
    if (d.op == op) return &d;
  return nullptr;
}

bool is_judged_attribute(std::string_view key) {
  return key == "debug_urls" || key == "output_stream" || key == "memory_region_name";
}

}  // namespace tensorgate::detail::savedmodel
