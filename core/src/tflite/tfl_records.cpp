// What the walk keeps of the model as its tables, vectors and strings complete: each fills the
// record its context names (the subgraph and tensor it belongs to), made when the vector that
// lists it was read.
#include "tflite/validator.hpp"

namespace tensorgate::detail::tflite {

template <class T>
T TfliteValidator::scalar(const Pending& table, std::uint8_t id, T fallback) {
  const std::uint16_t v = voffset(table, id);
  if (v == 0) return fallback;
  return static_cast<T>(le(*kept_.read(table.at + v, sizeof(T))));
}

void TfliteValidator::record_table(const Pending& p) {
  switch (p.kind) {
    case Kind::model:
      model_.seen = true;
      model_.version = scalar<std::uint32_t>(p, field::model_version, 0);
      return;
    case Kind::operator_code: {
      if (p.ctx0 >= model_.opcodes.size()) return;
      OpCodeRecord& c = model_.opcodes[p.ctx0];
      c.offset = p.at;
      c.deprecated_builtin = scalar<std::int8_t>(p, field::opcode_deprecated_builtin, 0);
      c.version = scalar<std::int32_t>(p, field::opcode_version, 1);
      c.builtin = scalar<std::int32_t>(p, field::opcode_builtin, 0);
      return;
    }
    case Kind::subgraph:
      if (p.ctx0 < model_.subgraphs.size()) model_.subgraphs[p.ctx0].offset = p.at;
      return;
    case Kind::tensor: {
      if (p.ctx0 >= model_.subgraphs.size() || p.ctx1 >= model_.subgraphs[p.ctx0].tensors.size()) return;
      TensorRecord& t = model_.subgraphs[p.ctx0].tensors[p.ctx1];
      t.offset = p.at;
      t.seen = true;
      t.type = scalar<std::int8_t>(p, field::tensor_type, 0);
      t.buffer = scalar<std::uint32_t>(p, field::tensor_buffer, 0);
      t.sparse = voffset(p, field::tensor_sparsity) != 0;
      return;
    }
    case Kind::op: {
      if (p.ctx0 >= model_.subgraphs.size() || p.ctx1 >= model_.subgraphs[p.ctx0].operators.size()) return;
      OperatorRecord& o = model_.subgraphs[p.ctx0].operators[p.ctx1];
      o.offset = p.at;
      o.seen = true;
      o.opcode_index = scalar<std::uint32_t>(p, field::op_opcode_index, 0);
      return;
    }
    case Kind::buffer: {
      if (p.ctx0 >= model_.buffers.size()) return;
      BufferRecord& b = model_.buffers[p.ctx0];
      b.offset = p.at;
      b.external_offset = scalar<std::uint64_t>(p, field::buffer_offset, 0);
      b.external_size = scalar<std::uint64_t>(p, field::buffer_size, 0);
      return;
    }
    case Kind::metadata:
      if (p.ctx0 < model_.metadata.size()) model_.metadata[p.ctx0].buffer = scalar<std::uint32_t>(p, field::metadata_buffer, 0);
      return;
    default: return;
  }
}

// A vector of tables: the records its tables fill, one per element, before they are asked for.
bool TfliteValidator::size_records(const Pending& p, std::uint32_t count) {
  std::uint64_t each = 0;
  switch (p.role) {
    case Role::model_operator_codes: each = sizeof(OpCodeRecord); break;
    case Role::model_subgraphs: each = sizeof(SubgraphRecord); break;
    case Role::model_buffers: each = sizeof(BufferRecord); break;
    case Role::model_metadata: each = sizeof(MetadataRecord); break;
    case Role::model_signatures: each = sizeof(Ref); break;
    case Role::subgraph_tensors: each = sizeof(TensorRecord); break;
    case Role::subgraph_operators: each = sizeof(OperatorRecord); break;
    default: return true;
  }
  if (!hold(each * count)) return false;
  const bool sg = p.ctx0 < model_.subgraphs.size();
  switch (p.role) {
    case Role::model_operator_codes: model_.opcodes.assign(count, {}); break;
    case Role::model_subgraphs:
      model_.subgraphs.assign(count, {});
      model_.has_subgraphs = true;
      break;
    case Role::model_buffers: model_.buffers.assign(count, {}); break;
    case Role::model_metadata: model_.metadata.assign(count, {}); break;
    case Role::model_signatures: model_.signatures.assign(count, {}); break;
    case Role::subgraph_tensors:
      if (sg) model_.subgraphs[p.ctx0].tensors.assign(count, {});
      break;
    case Role::subgraph_operators:
      if (sg) model_.subgraphs[p.ctx0].operators.assign(count, {});
      break;
    default: break;
  }
  return true;
}

std::pair<std::uint32_t, std::uint32_t> TfliteValidator::child_context(const Pending& vec, std::uint32_t index) const {
  switch (vec.role) {
    case Role::subgraph_tensors:
    case Role::subgraph_operators: return {vec.ctx0, index};
    case Role::model_operator_codes:
    case Role::model_subgraphs:
    case Role::model_buffers:
    case Role::model_metadata:
    case Role::model_signatures: return {index, 0};
    default: return {vec.ctx0, vec.ctx1};
  }
}

// A vector or string whose elements passed: where they are, for the judging.
void TfliteValidator::record_vector(const Pending& p, std::uint32_t count) {
  const Ref r{p.at + 4, count, true};
  const auto sg = [&]() -> SubgraphRecord* {
    return p.ctx0 < model_.subgraphs.size() ? &model_.subgraphs[p.ctx0] : nullptr;
  };
  switch (p.role) {
    case Role::model_description: model_.description = r; return;
    case Role::opcode_custom:
      if (p.ctx0 < model_.opcodes.size()) model_.opcodes[p.ctx0].custom = r;
      return;
    case Role::subgraph_inputs:
      if (auto* s = sg()) s->inputs = r;
      return;
    case Role::subgraph_outputs:
      if (auto* s = sg()) s->outputs = r;
      return;
    case Role::subgraph_name:
      if (auto* s = sg()) s->name = r;
      return;
    case Role::tensor_shape:
    case Role::tensor_name:
      if (auto* s = sg(); s && p.ctx1 < s->tensors.size()) (p.role == Role::tensor_shape ? s->tensors[p.ctx1].shape : s->tensors[p.ctx1].name) = r;
      return;
    case Role::op_inputs:
    case Role::op_outputs:
      if (auto* s = sg(); s && p.ctx1 < s->operators.size())
        (p.role == Role::op_inputs ? s->operators[p.ctx1].inputs : s->operators[p.ctx1].outputs) = r;
      return;
    case Role::buffer_data:
      if (p.ctx0 < model_.buffers.size()) {
        model_.buffers[p.ctx0].has_data = true;
        model_.buffers[p.ctx0].data_at = p.at + 4;
        model_.buffers[p.ctx0].data_size = count;
      }
      return;
    case Role::metadata_name:
      if (p.ctx0 < model_.metadata.size()) model_.metadata[p.ctx0].name = r;
      return;
    case Role::signature_key:
      if (p.ctx0 < model_.signatures.size()) model_.signatures[p.ctx0] = r;
      return;
    default: return;
  }
}

}  // namespace tensorgate::detail::tflite
