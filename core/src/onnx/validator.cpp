#include "onnx/validator.hpp"

#include <algorithm>
#include <cassert>

#include "common/report_of.hpp"
#include "onnx/data_types.hpp"

namespace tensorgate {
namespace detail::onnx {
namespace {

protobuf::WireLimits wire_limits(const Limits& limits) {
  return {limits.onnx.max_depth, limits.onnx.max_field_bytes};
}

std::string cut(std::string_view s) { return std::string(s.substr(0, kMaxListedName)); }

std::uint64_t listed_cost(const OnnxValue& v) {
  std::uint64_t n = sizeof v + v.name.size() + v.type.size();
  for (const std::string& d : v.shape) n += sizeof d + d.size();
  return n;
}

}  // namespace

OnnxValidator::OnnxValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), memory_(budget), findings_(limits.max_findings), reader_(*this, wire_limits(limits)) {}

Progress OnnxValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  if (!reader_.fault()) reader_.feed({reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size()});
  note_wire_fault();
  return progress();
}

// Past what is only counted, or through the rest of a skipped field exactly as feeding it would
// go (the wire reader closes the field and the messages that end with it).
Progress OnnxValidator::skip(std::uint64_t count) {
  assert((bytes_wanted() == 0 || count <= bytes_skippable()) && "skip() only past the bytes the validator looks at");
  if (!done()) reader_.skip(std::min(count, reader_.skippable()));
  bytes_seen_ += count;
  return progress();
}

Report OnnxValidator::finish() {
  if (!finished_) {
    finished_ = true;
    if (!reader_.fault()) reader_.finish();
    note_wire_fault();
    if (!reader_.fault() && !aborted_) model_checks();
  }
  return report();
}

Progress OnnxValidator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

bool OnnxValidator::take_listed(std::uint64_t bytes) {
  if (bytes > kMaxListedBytes - listed_bytes_) return false;
  listed_bytes_ += bytes;
  return true;
}

void OnnxValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  reader_.stop();
}

bool OnnxValidator::charge(std::uint64_t bytes, bool listed) {
  if (listed) summary_bytes_ += bytes;
  if (hold(bytes)) return true;
  abort_with("onnx-memory-budget", "no memory left in the shared budget for " + std::to_string(memory_.used()) +
                                       " bytes of the model's summary, op counts and names",
             AbortKind::memory_budget);
  return false;
}

bool OnnxValidator::hold(std::uint64_t bytes) const { return memory_.add(bytes); }

Report OnnxValidator::report() const {
  Report r = report_of(Format::onnx, bytes_seen_, findings_, aborted_);
  if (aborted_) return r;
  // The report's copy of the summary lives as long as this validator (until the answer is
  // written): charged before it is made.
  if (!hold(summary_bytes_)) {
    r.aborted = Aborted{"onnx-memory-budget", "no memory left in the shared budget for the report's copy of the summary",
                        AbortKind::memory_budget};
    r.valid = false;
    return r;
  }
  r.summary = summary_;
  return r;
}

// --- the schema's events ------------------------------------------------------------------------

protobuf::LenChoice OnnxValidator::on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length,
                                           std::uint64_t pos) {
  const protobuf::LenChoice c = len_choice(kind, field);
  if (c.action == protobuf::LenAction::message) start_message(static_cast<Kind>(c.kind), pos);
  if (kind == initializer || kind == other_tensor) {
    if (field == 9) {  // raw_data: counted, never read; where its bytes start is kept
      tensor_.has_raw = true;
      tensor_.raw_bytes += length;
      ++tensor_.raw_fields;
      tensor_.raw_pos = reader_.position();  // past the field's tag and length
    } else if (field == 6) {
      ++tensor_.strings;
    }
  }
  return c;
}

void OnnxValidator::start_message(Kind kind, std::uint64_t pos) {
  switch (kind) {
    case initializer:
    case other_tensor:
      tensor_ = TensorState{};
      tensor_.kind = kind;
      tensor_.pos = pos;
      break;
    case node:
      ++summary_.nodes;
      nodes_.push_back(NodeState{{}, {}, pos});
      break;
    case main_graph:
      ++summary_.graphs;
      in_main_graph_ = true;
      break;
    case sub_graph:
      ++summary_.graphs;
      ++inner_depth_;
      break;
    case function:
      ++inner_depth_;
      ++summary_.functions;
      function_ = NodeState{{}, {}, pos};
      break;
    case opset: opset_.emplace(); break;
    case main_input:
    case main_output:
      value_.emplace();
      value_is_output_ = kind == main_output;
      break;
    case main_shape:
      if (value_) value_->has_shape = true;
      break;
    case main_dim:
      dim_listed_ = value_ && value_->shape.size() < kMaxListedDims;
      if (dim_listed_) value_->shape.emplace_back("?");
      break;
    case external_entry:
      tensor_.external = true;
      tensor_.entry_key.clear();
      tensor_.entry_value.clear();
      break;
    default: break;
  }
}

void OnnxValidator::on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t) {
  switch (kind) {
    case model:
      if (field == 1) {
        has_ir_version_ = true;
        summary_.ir_version = value;
      } else if (field == 5) {
        summary_.model_version = static_cast<std::int64_t>(value);
      }
      break;
    case opset:
      if (field == 2 && opset_) opset_->version = static_cast<std::int64_t>(value);
      break;
    case initializer:
    case other_tensor: tensor_value(field, value); break;
    case main_tensor_type:
      if (field == 1 && value_) value_->type = std::string(data_type_name(value));
      break;
    case main_dim:
      if (field == 1 && dim_listed_) value_->shape.back() = std::to_string(static_cast<std::int64_t>(value));
      break;
    default: break;
  }
}

void OnnxValidator::on_fixed32(std::uint16_t kind, std::uint32_t field, std::uint32_t, std::uint64_t) {
  if ((kind == initializer || kind == other_tensor) && field == 4) ++tensor_.floats;
}

void OnnxValidator::on_fixed64(std::uint16_t kind, std::uint32_t field, std::uint64_t, std::uint64_t) {
  if ((kind == initializer || kind == other_tensor) && field == 10) ++tensor_.doubles;
}

void OnnxValidator::on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t) {
  switch (kind) {
    case model:
      if (field == 2) summary_.producer_name = cut(bytes);
      else if (field == 3) summary_.producer_version = cut(bytes);
      else if (field == 4) summary_.domain = cut(bytes);
      break;
    case opset:
      if (opset_) opset_->domain = cut(bytes);
      break;
    case node:
      if (nodes_.empty()) break;
      if (field == 2) note_main_name(bytes, directly_in_main_graph());
      else if (field == 4) nodes_.back().op_type = cut(bytes);
      else nodes_.back().domain = cut(bytes);
      break;
    case initializer:
    case other_tensor: tensor_.name = cut(bytes); break;
    case external_entry:
      if (field == 1) tensor_.entry_key.assign(bytes);
      else tensor_.entry_value.assign(bytes);
      break;
    case main_input:
    case main_output:
      if (value_) value_->name = cut(bytes);
      break;
    case function:
      if (field == 1) function_.op_type = cut(bytes);
      else function_.domain = cut(bytes);
      break;
    case main_dim:
      if (dim_listed_) value_->shape.back() = cut(bytes);
      break;
    default: break;
  }
}

void OnnxValidator::on_message_end(std::uint16_t kind, std::uint64_t) {
  switch (kind) {
    case initializer:
    case other_tensor: tensor_done(); break;
    case external_entry: external_entry_done(); break;
    case node: node_done(); break;
    case main_graph: in_main_graph_ = false; break;
    case sub_graph: --inner_depth_; break;
    case function:
      --inner_depth_;
      if (std::string key = op_key(function_.domain, function_.op_type);
          local_functions_.size() < limits_.onnx.max_listed_ops && !local_functions_.contains(key) &&
          charge(kSlotBytes + key.size(), false))
        local_functions_.insert(std::move(key));
      break;
    case opset:
      if (!opset_) break;
      has_default_opset_ = has_default_opset_ || opset_->domain.empty() || opset_->domain == "ai.onnx";
      if (summary_.opsets.size() < limits_.onnx.max_listed_values && charge(sizeof(OnnxOpset) + opset_->domain.size(), true))
        summary_.opsets.push_back(*opset_);
      break;
    case main_input:
    case main_output:
      if (!value_) break;
      if (kind == main_input) note_main_name(value_->name, true);
      if (const std::uint64_t cost = listed_cost(*value_);
          summary_.inputs.size() + summary_.outputs.size() < limits_.onnx.max_listed_values && take_listed(cost)) {
        if (charge(cost, true)) (value_is_output_ ? summary_.outputs : summary_.inputs).push_back(std::move(*value_));
      } else {
        ++summary_.values_not_listed;
      }
      value_.reset();
      break;
    default: break;
  }
}

}  // namespace detail::onnx

std::unique_ptr<Validator> make_onnx_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::onnx::OnnxValidator>(limits, budget);
}

}  // namespace tensorgate
