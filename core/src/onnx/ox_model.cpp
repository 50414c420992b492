// The model (OX.ir-version, OX.opset, OX.custom-domain, OX.wire): its own fields, each node as
// it ends, and the checks once the whole model is read.
#include <algorithm>
#include <array>

#include "common/printable.hpp"
#include "onnx/validator.hpp"

namespace tensorgate::detail::onnx {
namespace {

// The domains of onnx's own operator sets, and onnxruntime's contrib operators.
constexpr std::array<std::string_view, 6> kKnownDomains{"", "ai.onnx", "ai.onnx.ml", "ai.onnx.training",
                                                        "ai.onnx.preview.training", "com.microsoft"};
constexpr std::size_t kMaxOpTypeKey = 256;  // an op type longer than this is counted under its prefix

}  // namespace

void OnnxValidator::node_done() {
  if (nodes_.empty()) return;
  const NodeState n = std::move(nodes_.back());
  nodes_.pop_back();
  if (std::find(kKnownDomains.begin(), kKnownDomains.end(), n.domain) == kKnownDomains.end() &&
      warned_domains_.size() < limits_.onnx.max_listed_ops && warned_domains_.insert(n.domain).second)
    findings_.add(Rule::ox_custom_domain, "node " + quoted(n.op_type) + " of domain " + quoted(n.domain) +
                                              ": running it needs that domain's operator library", n.pos);
  const std::string domain = n.domain == "ai.onnx" ? std::string() : n.domain;
  const std::string key = domain.substr(0, kMaxOpTypeKey) + '\0' + n.op_type.substr(0, kMaxOpTypeKey);
  if (const auto it = op_index_.find(key); it != op_index_.end()) {
    ++summary_.ops[it->second].count;
  } else if (summary_.ops.size() < limits_.onnx.max_listed_ops) {
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
}

}  // namespace tensorgate::detail::onnx
