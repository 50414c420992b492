// Layers (OV.xml for their ids, OV.custom-opset for their versions, OV.unknown for their element
// types) and Const layers' <data> (OV.const): what ir_deserializer.cpp reads of each layer, and
// the size a Constant of that type and shape has (op/constant.cpp).
#include <array>
#include <cstring>

#include "common/printable.hpp"
#include "openvino/element_types.hpp"
#include "openvino/ir_reader.hpp"

namespace tensorgate::detail::openvino {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

constexpr std::size_t kNameBytes = 256;  // of a layer's name kept for the list
constexpr std::size_t kVersionBytes = 64;  // of a version kept for the tally
constexpr std::size_t kMaxOpsets = 256;    // distinct versions tallied; the rest under "(other)"
constexpr std::uint64_t kShapeKept = 32;   // dimensions of a listed Const

std::string head(const char* text, std::size_t max) { return std::string(text, std::min(std::strlen(text), max)); }

// The standard operation sets (src/core/include/openvino/opsets/), the set OpenVINO's own
// transformations write (ov::op::internal: "ie_internal_opset"), and the old names its IR reader
// still maps to opset6 for the operations ir_deserializer.cpp lists.
bool standard_opset(std::string_view version, std::string_view type) {
  if (version.starts_with("opset")) {
    std::uint64_t n = 0;
    return parse_u64(version.substr(5), n) && n >= 1 && n <= 15 && version.substr(5).front() != '0';
  }
  if (version == "ie_internal_opset") return true;
  if (version == "experimental" || version == "extension") {
    static constexpr std::array<std::string_view, 8> kMoved = {
        "ExperimentalDetectronDetectionOutput", "ExperimentalDetectronGenerateProposalsSingleImage",
        "ExperimentalDetectronPriorGridGenerator", "ExperimentalDetectronROIFeatureExtractor",
        "ExperimentalDetectronTopKROIs", "GRUCell", "RNNCell", "Proposal"};
    for (const std::string_view t : kMoved)
      if (t == type) return true;
  }
  return false;
}

}  // namespace

bool IrReader::on_layer(const char** atts, std::uint64_t offset) {
  if (++summary_.layers > limits_.openvino.max_layers)
    return bound("more than Limits::openvino.max_layers (" + num(limits_.openvino.max_layers) + ") layers", offset);
  if (!keep(sizeof(Layer) + 2 * sizeof(std::uint64_t))) return false;
  Layer l;
  l.offset = offset;
  const char *id = nullptr, *type = nullptr, *version = nullptr;
  for (const char** a = atts; *a; a += 2) {
    if (std::strcmp(a[0], "id") == 0) id = a[1];
    else if (std::strcmp(a[0], "type") == 0) type = a[1];
    else if (std::strcmp(a[0], "version") == 0) version = a[1];
    else if (std::strcmp(a[0], "name") == 0) l.name = head(a[1], kNameBytes);
  }
  if (!id || !parse_u64(id, l.id))
    return refuse(std::string("a <layer> ") + (id ? "whose id " + quoted(id) + " is no number" : "without an id"), offset);
  l.id_text = head(id, 24);
  if (!type) xml("layer " + l.id_text + " has no type attribute", offset);
  if (!version) xml("layer " + l.id_text + " has no version attribute (OpenVINO's reader requires one)", offset);
  l.is_const = type && std::strcmp(type, "Const") == 0;
  if (version) count_opset(version, type ? type : "", offset);
  nets_.back().layers.emplace_back(l.id, offset);
  layer_stack_.push_back(std::move(l));
  return true;
}

void IrReader::count_opset(std::string_view version, std::string_view type, std::uint64_t offset) {
  const std::string_view key = version.substr(0, kVersionBytes);
  if (auto it = opsets_.find(key); it != opsets_.end()) ++it->second;
  else if (opsets_.size() < kMaxOpsets) opsets_.emplace(std::string(key), 1);
  else ++opsets_["(other)"];
  if (standard_opset(version, type) || custom_.count(key)) return;
  if (custom_.size() >= kMaxOpsets) return;
  custom_.emplace(key);
  findings_.add(Rule::ov_custom_opset,
                "layer of type " + quoted(type) + " is of operation set " + quoted(version) +
                    ", no standard opset (opset1..opset15, ie_internal_opset): its operations come from an extension library "
                    "loaded with the model",
                offset);
}

void IrReader::on_data(const char** atts, std::uint64_t offset) {
  if (layer_stack_.empty()) return;
  Layer& l = layer_stack_.back();
  if (l.data_seen) return;  // OpenVINO reads a layer's first <data>
  l.data_seen = true;
  for (const char** a = atts; *a; a += 2) {
    const std::string_view key(a[0]), value(a[1]);
    if (key == "element_type") {
      l.has_type = true;
      l.element_type = std::string(value.substr(0, 32));
      if (const auto t = element_type(value)) {
        l.known_type = true;
        l.bits = t->bits;
        element_types_.emplace(t->name);
      } else {
        findings_.add(Rule::ov_unknown, "layer " + l.id_text + " has element_type " + quoted(value) + ", no type OpenVINO knows", offset);
      }
    } else if (!l.is_const) {
      continue;
    } else if (key == "shape") {
      l.has_shape = true;
      l.shape_ok = parse_shape(value, l.shape, kShapeKept, l.rank, l.elements, l.elements_overflow);
    } else if (key == "offset") {
      l.has_offset = true;
      l.numbers_ok = parse_u64(value, l.data_offset) && l.numbers_ok;
    } else if (key == "size") {
      l.has_size = true;
      l.numbers_ok = parse_u64(value, l.data_size) && l.numbers_ok;
    }
  }
}

void IrReader::end_layer() {
  if (layer_stack_.empty()) return;
  Layer l = std::move(layer_stack_.back());
  layer_stack_.pop_back();
  if (l.is_const) judge_const(l);
}

void IrReader::judge_const(Layer& l) {
  const std::string who = "Const layer " + l.id_text + (l.name.empty() ? "" : " " + quoted(l.name));
  if (!l.has_type || !l.has_shape || !l.has_offset || !l.has_size) {
    findings_.add(Rule::ov_const, who + " lacks element_type, shape, offset or size in its <data>: where its weights are is unknown",
                  l.offset, l.name);
    return;
  }
  if (!l.numbers_ok) {
    findings_.add(Rule::ov_const, who + ": its offset or size is no unsigned number", l.offset, l.name);
    return;
  }
  if (l.data_offset > UINT64_MAX - l.data_size) {
    findings_.add(Rule::ov_const, who + ": offset + size is past any file", l.offset, l.name);
    return;
  }
  ++summary_.consts;
  summary_.const_bytes += l.data_size;
  summary_.weights_end = std::max(summary_.weights_end, l.data_offset + l.data_size);
  if (keep(sizeof(OpenVinoRange))) summary_.ranges.push_back(OpenVinoRange{l.data_offset, l.data_size, l.offset});
  if (summary_.const_layers.size() < limits_.openvino.max_listed_layers && keep(sizeof(OpenVinoConst) + l.name.size())) {
    summary_.const_layers.push_back(OpenVinoConst{l.id_text, l.name, l.element_type, l.shape, l.rank, l.data_offset, l.data_size});
  } else {
    ++summary_.const_layers_not_listed;
  }
  if (!l.shape_ok) {
    findings_.add(Rule::ov_const, who + ": its shape is not a list of unsigned dimensions", l.offset, l.name);
    return;
  }
  if (!l.known_type) return;  // OV.unknown said so
  if (l.element_type == "string") return;  // packed strings: any size
  std::uint64_t want = 0;
  if (const auto bytes = l.elements_overflow ? std::nullopt : packed_bytes(l.elements, l.bits)) want = *bytes;
  else l.bits = 0;
  if (l.bits == 0) {
    findings_.add(Rule::ov_const, who + " of " + quoted(l.element_type) + " and " + num(l.rank) + " dimensions cannot be sized",
                  l.offset, l.name);
    return;
  }
  if (want != l.data_size)
    findings_.add(Rule::ov_const,
                  who + " says size " + num(l.data_size) + ", but its shape and element type " + quoted(l.element_type) + " make " +
                      num(want) + " bytes",
                  l.offset, l.name);
}

}  // namespace tensorgate::detail::openvino
