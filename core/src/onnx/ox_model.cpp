// The model (OX.ir-version, OX.opset, OX.custom-domain, OX.policy-denied, OX.unknown-op,
// OX.wire): its own fields, each node as it ends, and the checks once the whole model is read
// (the opsets it imports and the functions it defines come after its graph).
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include <boost/container_hash/hash.hpp>

#include "common/printable.hpp"
#include "onnx/operators.hpp"
#include "onnx/validator.hpp"
#include "tensorgate/policy.hpp"

namespace tensorgate::detail::onnx {
namespace {

// The domains of onnx's own operator sets, and onnxruntime's contrib operators.
constexpr std::array<std::string_view, 6> kKnownDomains{"", "ai.onnx", "ai.onnx.ml", "ai.onnx.training",
                                                        "ai.onnx.preview.training", "com.microsoft"};
constexpr std::size_t kMaxOpTypeKey = 256;  // an op type longer than this is counted under its prefix

// A name of the main graph as OX.dangling-output compares it (cut as the summary lists it).
std::uint64_t name_hash(std::string_view name) { return boost::hash<std::string_view>{}(name.substr(0, kMaxListedName)); }

}  // namespace

std::string op_key(std::string_view domain, std::string_view op_type) {
  if (domain == "ai.onnx") domain = {};
  return std::string(domain.substr(0, kMaxOpTypeKey)) + '\0' + std::string(op_type.substr(0, kMaxOpTypeKey));
}

void OnnxValidator::node_done() {
  if (nodes_.empty()) return;
  const NodeState n = std::move(nodes_.back());
  nodes_.pop_back();
  // A domain is reported at its first node: the policy's denials (standard domains too), else a
  // custom domain unless the policy allows it. Past the bound on remembered domains a custom one
  // goes unwarned, but a denied one is reported at each node: no run of other domains before it
  // may hide it.
  const bool known = std::find(kKnownDomains.begin(), kKnownDomains.end(), n.domain) != kKnownDomains.end();
  const Policy* policy = limits_.policy.get();
  const std::string* denied = policy && !policy->onnx_deny.empty()
                                  ? policy->onnx_deny.match(n.domain.empty() ? "ai.onnx" : n.domain)
                                  : nullptr;
  if ((denied || !known) && !warned_domains_.contains(n.domain)) {
    const bool remembered = warned_domains_.size() < limits_.onnx.max_listed_ops;
    if (remembered) {
      if (!charge(kSlotBytes + n.domain.size(), false)) return;
      warned_domains_.insert(n.domain);
    }
    const std::string node = "node " + quoted(n.op_type) + " of domain " + quoted(n.domain);
    if (denied)
      findings_.add(Rule::ox_policy_denied, node + ": denied by the policy (" + *denied + ")", n.pos);
    else if (remembered && !(policy && policy->onnx_allow.match(n.domain)))
      findings_.add(Rule::ox_custom_domain, node + ": running it needs that domain's operator library", n.pos);
  }
  const std::string domain = n.domain == "ai.onnx" ? std::string() : n.domain;
  const std::string key = op_key(domain, n.op_type);
  if (const auto it = op_index_.find(key); it != op_index_.end()) {
    ++summary_.ops[it->second].count;
  } else if (summary_.ops.size() < limits_.onnx.max_listed_ops) {
    // The key in the index, and the domain and op type in the summary.
    if (!charge(kSlotBytes + key.size(), false) || !charge(sizeof(OnnxOpCount) + key.size(), true)) return;
    op_index_.emplace(key, summary_.ops.size());
    summary_.ops.push_back(OnnxOpCount{domain.substr(0, kMaxOpTypeKey), n.op_type.substr(0, kMaxOpTypeKey), 1});
  } else {
    ++summary_.ops_not_listed;
  }
}

void OnnxValidator::note_wire_fault() {
  const auto& fault = reader_.fault();
  if (!fault || fault_noted_) return;
  fault_noted_ = true;
  if (fault->error == protobuf::WireError::kept_too_large) {
    aborted_ = Aborted{"onnx-field-bytes",
                       "a name or string field is larger than this checker keeps (" +
                           std::to_string(limits_.onnx.max_field_bytes) + " bytes)",
                       AbortKind::limit};
    return;
  }
  findings_.add(Rule::ox_wire, std::string(protobuf::wire_error_text(fault->error)), fault->pos);
}

void OnnxValidator::model_checks() {
  if (!has_ir_version_ || summary_.ir_version == 0)
    findings_.add(Rule::ox_ir_version, has_ir_version_ ? "ir_version is 0" : "the model states no ir_version", 0);
  else if (summary_.ir_version > kNewestIrVersion)
    findings_.add(Rule::ox_ir_version, "ir_version " + std::to_string(summary_.ir_version) + " is newer than any onnx knows (" +
                                           std::to_string(kNewestIrVersion) + ")", 0);
  if (!has_default_opset_) findings_.add(Rule::ox_opset, "opset_import names no version of the default domain (ai.onnx)", 0);
  operator_checks();
  output_checks();
}

void OnnxValidator::note_main_name(std::string_view name, bool in_main_graph) {
  if (!in_main_graph || !main_names_complete_) return;
  if (main_names_.size() >= limits_.onnx.max_listed_tensors) {
    main_names_complete_ = false;
    main_names_ = {};
    return;
  }
  if (charge(kMainNameBytes, false)) main_names_.push_back(name_hash(name));
}

// Each listed output of the main graph is one of its inputs, initializers or node outputs. A
// subgraph's outputs may name its outer scope's values, so only the main graph is judged.
void OnnxValidator::output_checks() {
  if (!main_names_complete_) return;
  // A scan for each of a few outputs; sorted once for many.
  const bool sorted = summary_.outputs.size() > 8;
  if (sorted) std::sort(main_names_.begin(), main_names_.end());
  const auto defined = [&](std::uint64_t h) {
    return sorted ? std::binary_search(main_names_.begin(), main_names_.end(), h)
                  : std::find(main_names_.begin(), main_names_.end(), h) != main_names_.end();
  };
  for (const OnnxValue& out : summary_.outputs)
    if (!out.name.empty() && !defined(name_hash(out.name)))
      findings_.add(Rule::ox_dangling_output, "graph output " + quoted(out.name) +
                                                  " is no node's output, graph input or initializer of the main graph");
}

// Each op type of onnx's own domains against the opset version the model imports for its domain
// (without an import, against every version), once per op type; the model's own functions
// define what they name. Op types past the listed ones (Limits::onnx.max_listed_ops) are counted,
// not judged.
void OnnxValidator::operator_checks() {
  for (const OnnxOpCount& op : summary_.ops) {
    if (!has_operator_table(op.domain) || local_functions_.contains(op_key(op.domain, op.op_type))) continue;
    const std::string domain = op.domain.empty() ? "ai.onnx" : op.domain;
    const std::string what = "op type " + quoted(op.op_type) + " (" + std::to_string(op.count) + (op.count == 1 ? " node" : " nodes") + ")";
    std::optional<std::int64_t> imported;
    for (const OnnxOpset& o : summary_.opsets)
      if ((o.domain.empty() ? "ai.onnx" : o.domain) == domain) imported = o.version;
    const OperatorInfo* info = find_operator(op.domain, op.op_type);
    if (!info)
      findings_.add(Rule::ox_unknown_op, what + " is no operator of domain " + domain);
    else if (imported && *imported < info->since)
      findings_.add(Rule::ox_unknown_op, what + " is defined from opset " + std::to_string(info->since) + " of " + domain +
                                             "; the model imports opset " + std::to_string(*imported));
    else if (imported && info->deprecated && *imported >= info->deprecated)
      findings_.add(Rule::ox_unknown_op, what + " is deprecated from opset " + std::to_string(info->deprecated) + " of " +
                                             domain + "; the model imports opset " + std::to_string(*imported));
  }
}

}  // namespace tensorgate::detail::onnx
