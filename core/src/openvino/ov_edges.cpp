// Ports and edges (OV.xml): a net's <edge from-layer from-port to-layer to-port> must name a
// layer of that net and one of its output ports, and a layer and one of its input ports, as
// ir_deserializer.cpp connects them; layer ids are unique within their net. Checked when the net
// closes, so the order of <layers> and <edges> does not matter.
#include <algorithm>
#include <cstring>

#include "common/printable.hpp"
#include "openvino/ir_reader.hpp"

namespace tensorgate::detail::openvino {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

// Ports and edges kept per layer the limits allow: a real layer has a few of each.
constexpr std::uint64_t kItemsPerLayer = 16;

}  // namespace

bool IrReader::on_port(const char** atts, std::uint64_t offset) {
  if (layer_stack_.empty()) return true;
  const Layer& l = layer_stack_.back();
  const char* id = nullptr;
  for (const char** a = atts; *a; a += 2)
    if (std::strcmp(a[0], "id") == 0) id = a[1];
  std::uint64_t port = 0;
  if (!id || !parse_u64(id, port)) {
    xml("a port of layer " + l.id_text + (id ? " has the id " + quoted(id) + ", no number" : " has no id"), offset);
    return true;
  }
  if (++kept_items_ > kItemsPerLayer * limits_.openvino.max_layers)
    return bound("more ports and edges than " + num(kItemsPerLayer) + " per layer of Limits::openvino.max_layers", offset);
  if (!keep(sizeof(Port))) return false;
  nets_.back().ports.push_back(Port{l.id, port, l.in_output});
  return true;
}

bool IrReader::on_edge(const char** atts, std::uint64_t offset) {
  const char* v[4] = {nullptr, nullptr, nullptr, nullptr};
  static constexpr const char* kNames[4] = {"from-layer", "from-port", "to-layer", "to-port"};
  for (const char** a = atts; *a; a += 2)
    for (int i = 0; i < 4; ++i)
      if (std::strcmp(a[0], kNames[i]) == 0) v[i] = a[1];
  Edge e;
  std::uint64_t* out[4] = {&e.from_layer, &e.from_port, &e.to_layer, &e.to_port};
  for (int i = 0; i < 4; ++i) {
    if (!v[i] || !parse_u64(v[i], *out[i])) {
      xml(std::string("an <edge> whose ") + kNames[i] + (v[i] ? " " + quoted(v[i]) + " is no number" : " is missing"), offset);
      return true;
    }
  }
  e.offset = offset;
  if (++kept_items_ > kItemsPerLayer * limits_.openvino.max_layers)
    return bound("more ports and edges than " + num(kItemsPerLayer) + " per layer of Limits::openvino.max_layers", offset);
  if (!keep(sizeof(Edge))) return false;
  nets_.back().edges.push_back(e);
  return true;
}

void IrReader::end_net() {
  if (nets_.empty()) return;
  Net net = std::move(nets_.back());
  nets_.pop_back();
  std::sort(net.layers.begin(), net.layers.end());
  for (std::size_t i = 1; i < net.layers.size(); ++i)
    if (net.layers[i].first == net.layers[i - 1].first)
      xml("two layers of one net have the id " + num(net.layers[i].first), std::max(net.layers[i].second, net.layers[i - 1].second));
  std::sort(net.ports.begin(), net.ports.end());
  const auto has_layer = [&](std::uint64_t id) {
    const auto it = std::lower_bound(net.layers.begin(), net.layers.end(), std::make_pair(id, std::uint64_t{0}));
    return it != net.layers.end() && it->first == id;
  };
  const auto has_port = [&](std::uint64_t layer, std::uint64_t port, bool output) {
    return std::binary_search(net.ports.begin(), net.ports.end(), Port{layer, port, output});
  };
  for (const Edge& e : net.edges) {
    const std::string what = "the edge from layer " + num(e.from_layer) + " port " + num(e.from_port) + " to layer " +
                             num(e.to_layer) + " port " + num(e.to_port);
    if (!has_layer(e.from_layer)) xml(what + " names a layer " + num(e.from_layer) + " its net does not have", e.offset);
    else if (!has_port(e.from_layer, e.from_port, true)) xml(what + ": layer " + num(e.from_layer) + " has no such output port", e.offset);
    if (!has_layer(e.to_layer)) xml(what + " names a layer " + num(e.to_layer) + " its net does not have", e.offset);
    else if (!has_port(e.to_layer, e.to_port, false)) xml(what + ": layer " + num(e.to_layer) + " has no such input port", e.offset);
  }
}

}  // namespace tensorgate::detail::openvino
