#pragma once
// What the checks know of TensorFlow's ops: its registered ops (tf_ops.def, generated from
// TensorFlow's op registry by scripts/gen_tf_ops.py) for TF.custom-op, and the ops that read,
// write or run code (dangerous_ops.def) for TF.dangerous-op.
#include <string_view>

namespace tensorgate::detail::savedmodel {

// Whether TensorFlow registers the op. Names that begin with "_" are TensorFlow's internal ops
// (the graph optimizer's fused and oneDNN rewrites, function arguments): never in the published
// registry, written by TensorFlow itself into optimized graphs.
bool is_registered_op(std::string_view op);

enum class DangerWhen : unsigned char { always, file_url, file_region };
struct DangerousOp {
  std::string_view op;
  DangerWhen when;
  std::string_view reason;
};
// The op's entry of dangerous_ops.def, or null.
const DangerousOp* find_dangerous_op(std::string_view op);

// The attributes whose string values the checks read: debug_urls (DebugIdentityV2/V3),
// output_stream (PrintV2), memory_region_name (ImmutableConst).
bool is_judged_attribute(std::string_view key);

}  // namespace tensorgate::detail::savedmodel
