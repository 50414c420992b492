// The element path: which element is which in an IR (serialize.cpp's layout), the root and its
// IR version, and the bounds every element is held to.
#include <algorithm>
#include <cstring>

#include "common/printable.hpp"
#include "openvino/ir_reader.hpp"

namespace tensorgate::detail::openvino {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

IrReader::IrReader(const Limits& limits, FindingList& findings, BudgetHold& memory)
    : limits_(limits), findings_(findings), memory_(memory) {}

bool parse_u64(std::string_view text, std::uint64_t& out) {
  if (text.empty() || text.size() > 20) return false;
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

bool parse_shape(std::string_view text, std::vector<std::uint64_t>& dims, std::uint64_t max_kept, std::uint64_t& rank,
                 std::uint64_t& elements, bool& overflow) {
  dims.clear();
  rank = 0;
  elements = 1;
  overflow = false;
  if (text.empty()) return true;  // a scalar
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    std::uint64_t d = 0;
    if (!parse_u64(item, d)) return false;
    if (rank < max_kept) dims.push_back(d);
    ++rank;
    if (d != 0 && elements > UINT64_MAX / d) overflow = true;
    else elements *= d;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (overflow && std::find(dims.begin(), dims.end(), 0) != dims.end()) overflow = false;  // a zero makes it empty
  return true;
}

IrReader::Kind IrReader::child_kind(std::string_view name) const {
  const Kind parent = path_.back();
  switch (parent) {
    case Kind::net:
      if (name == "layers") return Kind::layers;
      if (name == "edges") return Kind::edges;
      return Kind::other;
    case Kind::layers: return name == "layer" ? Kind::layer : Kind::other;
    case Kind::layer:
      if (name == "data") return Kind::data;
      if (name == "input") return Kind::ports_in;
      if (name == "output") return Kind::ports_out;
      // A Loop's or TensorIterator's body, an If's branches: nets of their own.
      if (name == "body" || name == "then_body" || name == "else_body") return Kind::net;
      return Kind::other;
    case Kind::ports_in:
    case Kind::ports_out: return name == "port" ? Kind::port : Kind::other;
    case Kind::edges: return name == "edge" ? Kind::edge : Kind::other;
    default: return Kind::other;
  }
}

bool IrReader::start(const char* name, const char** atts, std::uint64_t offset, std::uint64_t tag_bytes) {
  if (stop_ != Stop::none) return false;
  if (path_.size() >= limits_.openvino.max_depth)
    return bound("elements nest deeper than Limits::openvino.max_depth (" + num(limits_.openvino.max_depth) + ")", offset);
  // A value is never longer than its tag: only a long tag's values are measured (the five
  // predefined entities and character references shorten what they stand in).
  const bool long_tag = tag_bytes == 0 || tag_bytes > limits_.openvino.max_attribute_bytes;
  std::uint64_t count = 0;
  for (const char** a = atts; *a; a += 2) {
    ++count;
    if (long_tag && std::strlen(a[1]) > limits_.openvino.max_attribute_bytes)
      return bound("the attribute " + quoted(a[0]) + " of <" + quoted(name, 40) + "> is longer than Limits::openvino.max_attribute_bytes (" +
                       num(limits_.openvino.max_attribute_bytes) + " bytes)",
                   offset);
  }
  if (count > limits_.openvino.max_attributes)
    return bound("<" + quoted(name, 40) + "> has " + num(count) + " attributes, more than Limits::openvino.max_attributes (" +
                     num(limits_.openvino.max_attributes) + ")",
                 offset);
  const std::string_view n(name);
  if (path_.empty()) {
    if (saw_root_) return refuse("a second root element", offset);  // expat refuses it first
    saw_root_ = true;
    if (n != "net") return refuse("the root element is <" + quoted(n, 40) + ">, not <net>: no OpenVINO IR", offset);
    path_.push_back(Kind::net);
    return on_net(atts, offset, true);
  }
  const Kind kind = child_kind(n);
  path_.push_back(kind);
  switch (kind) {
    case Kind::net: return on_net(atts, offset, false);
    case Kind::layer: return on_layer(atts, offset);
    case Kind::data:
      on_data(atts, offset);
      return stop_ == Stop::none;
    case Kind::ports_in:
    case Kind::ports_out:
      if (!layer_stack_.empty()) layer_stack_.back().in_output = kind == Kind::ports_out;
      return true;
    case Kind::port: return on_port(atts, offset);
    case Kind::edge: return on_edge(atts, offset);
    default: return true;
  }
}

bool IrReader::end(std::uint64_t) {
  if (stop_ != Stop::none || path_.empty()) return stop_ == Stop::none;
  const Kind kind = path_.back();
  path_.pop_back();
  if (kind == Kind::layer) end_layer();
  else if (kind == Kind::net) end_net();
  if (path_.empty()) root_closed_ = true;
  return stop_ == Stop::none;
}

bool IrReader::on_net(const char** atts, std::uint64_t offset, bool root) {
  if (!keep(sizeof(Net))) return false;
  nets_.emplace_back();
  if (!root) return true;
  const char* version = nullptr;
  for (const char** a = atts; *a; a += 2) {
    if (std::strcmp(a[0], "version") == 0) version = a[1];
    else if (std::strcmp(a[0], "name") == 0) summary_.net_name = std::string(a[1], std::min<std::size_t>(std::strlen(a[1]), 256));
  }
  if (!version) return refuse("<net> has no version attribute: the IR version (10 or 11) is unknown", offset);
  const std::string_view v(version);
  if (v != "10" && v != "11")
    return refuse("<net version=" + quoted(v, 20) + ">: the reader knows IR versions 10 and 11 (OpenVINO reads no other)", offset);
  summary_.ir_version = v == "10" ? 10 : 11;
  return true;
}

bool IrReader::keep(std::uint64_t bytes) {
  if (memory_.add(bytes)) return true;
  stop_ = Stop::memory;
  return false;
}

bool IrReader::bound(std::string message, std::uint64_t offset) {
  findings_.add(Rule::ov_bounds, std::move(message), offset);
  stop_ = Stop::finding;
  return false;
}

bool IrReader::refuse(std::string message, std::uint64_t offset) {
  findings_.add(Rule::ov_xml, std::move(message), offset);
  stop_ = Stop::finding;
  return false;
}

void IrReader::xml(std::string message, std::uint64_t offset) { findings_.add(Rule::ov_xml, std::move(message), offset); }

OpenVinoSummary IrReader::summary() const {
  OpenVinoSummary s = summary_;
  s.layers_by_opset.assign(opsets_.begin(), opsets_.end());
  s.element_types.assign(element_types_.begin(), element_types_.end());
  s.custom_opsets.assign(custom_.begin(), custom_.end());
  return s;
}

}  // namespace tensorgate::detail::openvino
