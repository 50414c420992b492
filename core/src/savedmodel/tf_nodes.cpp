// The graph's nodes (TF.dangerous-op, TF.custom-op): each node as it ends, with its op counted
// and judged against the dangerous ops; once the whole file is read, each op against
// TensorFlow's registry and the library's functions (which come after the graph's nodes).
#include <algorithm>

#include "common/printable.hpp"
#include "savedmodel/ops.hpp"
#include "savedmodel/validator.hpp"

namespace tensorgate::detail::savedmodel {
namespace {

constexpr std::size_t kMaxOpKey = 256;  // an op longer than this is counted under its prefix

std::string where(const NodeState& n) {
  std::string s = "node " + quoted(n.name);
  if (!n.function.empty()) s += " of function " + quoted(n.function);
  return s;
}

}  // namespace

void SavedModelValidator::node_done() {
  NodeState n = std::move(node_);
  node_ = NodeState{};
  if (const DangerousOp* d = find_dangerous_op(n.op)) {
    const bool hit = d->when == DangerWhen::always || n.unjudged || (d->when == DangerWhen::file_url && n.file_url) ||
                     (d->when == DangerWhen::file_region && n.file_region);
    if (hit) {
      findings_.add(Rule::tf_dangerous_op, where(n) + " runs " + n.op + ", which " + std::string(d->reason) +
                                               (n.unjudged ? " (its string attributes could not all be read)" : ""),
                    n.pos);
      note_dangerous(n.op, where(n));
    }
  }
  count_op(n.op);
}

void SavedModelValidator::count_op(std::string_view op) {
  const std::string key(op.substr(0, kMaxOpKey));
  if (const auto it = op_index_.find(key); it != op_index_.end()) {
    ++summary_.ops[it->second].count;
  } else if (summary_.ops.size() < limits_.savedmodel.max_listed_ops && charge(kSlotBytes + 2 * key.size() + sizeof(SavedModelOpCount))) {
    op_index_.emplace(key, summary_.ops.size());
    summary_.ops.push_back(SavedModelOpCount{key, 1});
  } else {
    ++summary_.ops_not_listed;
  }
}

void SavedModelValidator::note_dangerous(std::string_view op, std::string_view node) {
  auto it = std::find_if(summary_.dangerous_ops.begin(), summary_.dangerous_ops.end(),
                         [&](const SavedModelDangerousOp& d) { return d.op == op; });
  if (it == summary_.dangerous_ops.end()) it = summary_.dangerous_ops.insert(it, SavedModelDangerousOp{std::string(op), {}, 0});
  if (it->nodes.size() < limits_.savedmodel.max_listed_values && take_listed(sizeof(std::string) + node.size()))
    it->nodes.emplace_back(node);
  else
    ++it->nodes_not_listed;
}

// Ops of no registered name and no function of the library, once per op; past the listed ops
// (or the listed functions) they are counted, not judged.
void SavedModelValidator::end_checks() {
  if (!functions_complete_) return;
  for (const SavedModelOpCount& op : summary_.ops) {
    if (op.op.empty() || is_registered_op(op.op) || functions_.contains(op.op)) continue;
    findings_.add(Rule::tf_custom_op, "op " + quoted(op.op) + " (" + std::to_string(op.count) +
                                          (op.count == 1 ? " node" : " nodes") +
                                          ") is neither a TensorFlow op nor a function of the graph's library");
  }
}

}  // namespace tensorgate::detail::savedmodel
