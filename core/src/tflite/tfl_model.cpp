// The model judged once every table was walked: TFL.model (schema version, subgraphs, tensor
// types and shapes), TFL.buffer (tensors against their buffers), TFL.operator (indices into the
// operator codes and the subgraph's tensors), and the custom and Flex ops (TFL.custom-op,
// TFL.flex, TFL.flex-dangerous by the savedmodel room's list of dangerous TensorFlow ops).
#include "common/printable.hpp"
#include "savedmodel/ops.hpp"
#include "tensorgate/utf8.hpp"
#include "tflite/validator.hpp"

namespace tensorgate::detail::tflite {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

}  // namespace

std::string TfliteValidator::text(const Ref& r, std::size_t max) const {
  if (!r.present) return {};
  const auto b = kept_.read(r.at, r.count);
  if (!b) return {};
  return std::string(b->substr(0, utf8_prefix(*b, max)));
}

std::vector<std::int64_t> TfliteValidator::ints(const Ref& r) {
  std::vector<std::int64_t> out;
  if (!r.present) return out;
  ints_read_ += r.count;
  if (ints_read_ > 4 * kept_.kept() + (1u << 20)) {
    ints_cut_ = true;
    return out;
  }
  const auto b = kept_.read(r.at, 4ull * r.count);
  if (!b) return out;
  out.reserve(r.count);
  for (std::uint32_t i = 0; i < r.count; ++i)
    out.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(le(b->substr(4ull * i, 4)))));
  return out;
}

void TfliteValidator::judge() {
  if (model_.version != 3)
    findings_.add(Rule::tfl_model, "the model's schema version is " + num(model_.version) + ", not 3 (the one TFLite reads)", 0);
  if (model_.subgraphs.empty())
    findings_.add(Rule::tfl_model, "the model has no subgraph: TFLite's interpreter refuses a model without one", 0);
  judge_operator_codes();
  for (std::uint32_t i = 0; i < model_.subgraphs.size(); ++i) judge_subgraph(i);
  for (std::size_t i = 0; i < model_.metadata.size(); ++i)
    if (model_.metadata[i].buffer >= model_.buffers.size())
      findings_.add(Rule::tfl_buffer, "metadata " + quoted(text(model_.metadata[i].name, 64)) + " names buffer " +
                                          num(model_.metadata[i].buffer) + ", past the model's " +
                                          num(model_.buffers.size()) + " buffers",
                    0);
  build_summary();
  if (ints_cut_)
    abort_with("tflite-shared-vectors", "the model's tables share integer vectors (shapes, tensor indices) past four "
                                        "times the bytes of the flatbuffer: no writer does so; the file is not checked");
}

void TfliteValidator::judge_operator_codes() {
  for (OpCodeRecord& c : model_.opcodes) {
    const std::int32_t code = std::max<std::int32_t>(c.builtin, c.deprecated_builtin);
    if (code != kBuiltinCustom) continue;
    const std::string custom = text(c.custom, 256);  // op names are short; codes may be shared
    if (custom.rfind("Flex", 0) != 0) {
      findings_.add(Rule::tfl_custom_op, "operator code " + quoted(custom) +
                                             " is a custom op: the interpreter must have it registered, code the model "
                                             "does not hold",
                    c.offset);
      continue;
    }
    const std::string op = custom.substr(4);
    if (const savedmodel::DangerousOp* d = savedmodel::find_dangerous_op(op)) {
      std::string why = std::string(d->reason);
      if (d->when != savedmodel::DangerWhen::always)
        why += " (its attributes, in the operator's custom_options, are not read: the file case cannot be ruled out)";
      findings_.add(Rule::tfl_flex_dangerous, "operator code " + quoted(custom) + " runs TensorFlow's " + op +
                                                  " through the Flex delegate, which " + why,
                    c.offset);
    } else {
      findings_.add(Rule::tfl_flex, "operator code " + quoted(custom) + " runs TensorFlow's " + quoted(op) +
                                        " through the Flex delegate",
                    c.offset);
    }
  }
}

void TfliteValidator::judge_subgraph(std::uint32_t index) {
  SubgraphRecord& sg = model_.subgraphs[index];
  const std::uint64_t tensors = sg.tensors.size();
  const auto check_indices = [&](const Ref& r, const std::string& what, std::uint64_t offset) {
    for (const std::int64_t t : ints(r))
      if (t < -1 || t >= static_cast<std::int64_t>(tensors)) {
        findings_.add(Rule::tfl_operator, what + " names tensor " + std::to_string(t) + ", past subgraph " + num(index) +
                                              "'s " + num(tensors) + " tensors",
                      offset);
        return;
      }
  };
  check_indices(sg.inputs, "subgraph " + num(index) + "'s inputs", sg.offset);
  check_indices(sg.outputs, "subgraph " + num(index) + "'s outputs", sg.offset);
  for (std::size_t i = 0; i < sg.operators.size(); ++i) {
    const OperatorRecord& o = sg.operators[i];
    const std::string where = "operator " + num(i) + " of subgraph " + num(index);
    if (o.opcode_index >= model_.opcodes.size())
      findings_.add(Rule::tfl_operator, where + " has opcode index " + num(o.opcode_index) + ", past the model's " +
                                            num(model_.opcodes.size()) + " operator codes",
                    o.offset);
    else
      ++model_.opcodes[o.opcode_index].uses;
    check_indices(o.inputs, where + "'s inputs", o.offset);
    check_indices(o.outputs, where + "'s outputs", o.offset);
  }
  for (const TensorRecord& t : sg.tensors) judge_tensor(sg, t);
}

void TfliteValidator::judge_tensor(const SubgraphRecord&, const TensorRecord& t) {
  std::string name;  // read only for a finding: a name may be shared by a million tensors
  const auto named = [&]() -> const std::string& {
    if (name.empty()) name = text(t.name, 256);
    return name;
  };
  std::string_view type_name;
  std::uint32_t bits = 0;
  bool sized = tensor_type(t.type, type_name, bits);
  if (!sized)
    findings_.add(Rule::tfl_model, "tensor " + quoted(named()) + " has type " + std::to_string(t.type) +
                                       ", not one of schema.fbs's TensorType values",
                  t.offset, named());
  std::uint64_t elements = 1;
  for (const std::int64_t d : ints(t.shape)) {
    if (d < 0) {
      findings_.add(Rule::tfl_model, "tensor " + quoted(named()) + " has a negative dimension (" + std::to_string(d) + ")",
                    t.offset, named());
      sized = false;
      break;
    }
    elements = saturating_mul(elements, static_cast<std::uint64_t>(d));
  }
  if (t.buffer >= model_.buffers.size()) {
    findings_.add(Rule::tfl_buffer, "tensor " + quoted(named()) + " names buffer " + num(t.buffer) + ", past the model's " +
                                        num(model_.buffers.size()) + " buffers",
                  t.offset, named());
    return;
  }
  const std::uint64_t size = model_.buffers[t.buffer].size();
  if (size == 0 || !sized || bits == 0 || t.sparse) return;
  const std::uint64_t bytes = elements == UINT64_MAX ? UINT64_MAX : (saturating_mul(elements, bits) + 7) / 8;
  if (bytes != size)
    findings_.add(Rule::tfl_buffer, "tensor " + quoted(named()) + " of " + std::string(type_name) + " and " + num(elements) +
                                        " elements needs " + (bytes == UINT64_MAX ? "more than 2^64" : num(bytes)) +
                                        " bytes, but its buffer " + num(t.buffer) + " holds " + num(size),
                  t.offset, named());
}

// What only the input's end tells: that the runs not read lie inside the file.
void TfliteValidator::judge_at_end() {
  if (required_end_ > bytes_seen_) {
    findings_.add(Rule::tfl_flatbuffer, "the file ends at byte " + num(bytes_seen_) + ", before the end of " +
                                            required_what_ + " at byte " + num(required_at_) + " (byte " +
                                            num(required_end_) + "): an offset or a length past the end",
                  required_at_);
  }
  for (std::size_t i = 0; i < model_.buffers.size(); ++i) {
    const BufferRecord& b = model_.buffers[i];
    if (!b.external() || b.has_data) continue;
    if (b.external_offset > bytes_seen_ || b.external_size > bytes_seen_ - b.external_offset)
      findings_.add(Rule::tfl_buffer, "buffer " + num(i) + " says its " + num(b.external_size) + " bytes are at byte " +
                                          num(b.external_offset) + ", past the end of the file (" + num(bytes_seen_) +
                                          " bytes)",
                    b.offset);
  }
}

}  // namespace tensorgate::detail::tflite
