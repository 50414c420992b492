// The summary of a walked model: its schema version and description, subgraphs, operator codes,
// tensors (the first Limits::tflite.max_listed_tensors), buffers and parameters.
#include "tflite/validator.hpp"

namespace tensorgate::detail::tflite {

void TfliteValidator::build_summary() {
  TfliteSummary s;
  s.version = model_.version;
  s.description = text(model_.description, 4096);
  for (const SubgraphRecord& sg : model_.subgraphs) {
    if (s.subgraphs.size() >= limits_.tflite.max_listed_tensors) {
      ++s.subgraphs_not_listed;
      continue;
    }
    s.subgraphs.push_back(TfliteSubgraph{text(sg.name, 256), sg.tensors.size(), sg.operators.size()});
  }
  for (const OpCodeRecord& c : model_.opcodes) {
    if (s.operator_codes.size() >= limits_.tflite.max_listed_tensors) {
      ++s.operator_codes_not_listed;
      continue;
    }
    TfliteOperatorCode row;
    row.builtin = std::max<std::int32_t>(c.builtin, c.deprecated_builtin);
    row.custom = row.builtin == kBuiltinCustom;
    row.version = c.version;
    row.uses = c.uses;
    if (row.custom) {
      row.name = text(c.custom, 256);
    } else {
      const std::string_view known = builtin_name(row.builtin);
      row.name = known.empty() ? "BUILTIN_" + std::to_string(row.builtin) : std::string(known);
    }
    s.operator_codes.push_back(std::move(row));
  }
  s.buffers = model_.buffers.size();
  for (const BufferRecord& b : model_.buffers) {
    s.buffer_bytes += b.size();
    if (b.external() && !b.has_data) ++s.external_buffers;
  }
  for (std::uint32_t g = 0; g < model_.subgraphs.size(); ++g) {
    for (const TensorRecord& t : model_.subgraphs[g].tensors) {
      const std::uint64_t bytes = t.buffer < model_.buffers.size() ? model_.buffers[t.buffer].size() : 0;
      const std::vector<std::int64_t> shape = ints(t.shape);
      if (bytes > 0) {
        std::uint64_t n = 1;
        for (const std::int64_t d : shape) n = d < 0 ? 0 : (d != 0 && n > UINT64_MAX / static_cast<std::uint64_t>(d)) ? UINT64_MAX : n * static_cast<std::uint64_t>(d);
        s.parameters = n > UINT64_MAX - s.parameters ? UINT64_MAX : s.parameters + n;
      }
      if (s.tensors.size() >= limits_.tflite.max_listed_tensors) {
        ++s.tensors_not_listed;
        continue;
      }
      std::string_view type;
      std::uint32_t bits = 0;
      TfliteTensor row;
      row.name = text(t.name, 256);  // a name may be shared by every listed tensor
      row.subgraph = g;
      row.type = tensor_type(t.type, type, bits) ? std::string(type) : "TYPE_" + std::to_string(t.type);
      row.shape = shape;
      row.buffer = t.buffer;
      row.bytes = bytes;
      row.offset = t.offset;
      if (bytes > 0) {
        const BufferRecord& b = model_.buffers[t.buffer];
        row.data_offset = b.has_data ? b.data_at : b.external_offset;
      }
      s.tensors.push_back(std::move(row));
    }
  }
  // Names of at most 256 bytes, lists of at most max_listed_tensors: a string may be shared by
  // every entry.
  for (const Ref& r : model_.signatures)
    if (s.signatures.size() < limits_.tflite.max_listed_tensors) s.signatures.push_back(text(r, 256));
  for (const MetadataRecord& m : model_.metadata)
    if (s.metadata.size() < limits_.tflite.max_listed_tensors) s.metadata.push_back(text(m.name, 256));
  summary_ = std::move(s);
}

}  // namespace tensorgate::detail::tflite
