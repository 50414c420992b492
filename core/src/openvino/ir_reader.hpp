#pragma once
// What model.xml's elements say, as expat reports them (validator.cpp): the <net> root and its
// IR version, layers with their ids, versions and ports, each Const's <data> (ov_layers.cpp),
// and each net's edges checked against its layers' ports when the net closes (ov_edges.cpp).
// A Loop's or TensorIterator's <body> (an If's then_body and else_body) is a net of its own.
// Nesting is the element path kept here (bounded by Limits::openvino.max_depth), never
// recursion. Everything kept is counted against the Limits before it is kept.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/openvino.hpp"

namespace tensorgate::detail::openvino {

// Why the reader stopped early: the XML goes on being counted, nothing more is read of it.
enum class Stop : unsigned char { none, finding, memory };

class IrReader {
 public:
  IrReader(const Limits& limits, FindingList& findings, BudgetHold& memory);

  // An element starts: its name, expat's attribute pairs (null-terminated), and how many bytes
  // its tag takes in the file (no attribute value is longer). False: stop.
  bool start(const char* name, const char** atts, std::uint64_t offset, std::uint64_t tag_bytes);
  bool end(std::uint64_t offset);
  Stop stopped() const { return stop_; }
  bool saw_root() const { return saw_root_; }
  OpenVinoSummary summary() const;

 private:
  enum class Kind : unsigned char { net, layers, layer, data, ports_in, ports_out, port, edges, edge, other };
  struct Port {
    std::uint64_t layer = 0;
    std::uint64_t id = 0;
    bool output = false;
    auto operator<=>(const Port&) const = default;
  };
  struct Edge {
    std::uint64_t from_layer = 0, from_port = 0, to_layer = 0, to_port = 0, offset = 0;
  };
  struct Net {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> layers;  // (id, offset)
    std::vector<Port> ports;
    std::vector<Edge> edges;
  };
  struct Layer {
    std::uint64_t id = 0, offset = 0;
    std::string id_text, name;  // the first bytes, for messages and the list
    bool is_const = false, data_seen = false, in_output = false;
    // A Const's <data>:
    bool has_type = false, has_shape = false, has_offset = false, has_size = false;
    std::string element_type;
    std::uint32_t bits = 0;
    bool known_type = false, shape_ok = false, numbers_ok = true;
    std::vector<std::uint64_t> shape;
    std::uint64_t rank = 0, elements = 1;
    bool elements_overflow = false;
    std::uint64_t data_offset = 0, data_size = 0;
  };

  Kind child_kind(std::string_view name) const;
  bool on_net(const char** atts, std::uint64_t offset, bool root);
  bool on_layer(const char** atts, std::uint64_t offset);
  void on_data(const char** atts, std::uint64_t offset);
  bool on_port(const char** atts, std::uint64_t offset);
  bool on_edge(const char** atts, std::uint64_t offset);
  void end_layer();
  void end_net();
  void count_opset(std::string_view version, std::string_view type, std::uint64_t offset);
  void judge_const(Layer& l);
  bool keep(std::uint64_t bytes);  // bytes of kept structures against the memory budget
  bool bound(std::string message, std::uint64_t offset);  // OV.bounds: stop
  bool refuse(std::string message, std::uint64_t offset);  // OV.xml: stop
  void xml(std::string message, std::uint64_t offset);     // OV.xml: go on

  const Limits& limits_;
  FindingList& findings_;
  BudgetHold& memory_;
  Stop stop_ = Stop::none;
  bool saw_root_ = false, root_closed_ = false;
  std::vector<Kind> path_;
  std::vector<Net> nets_;
  std::vector<Layer> layer_stack_;
  std::uint64_t kept_items_ = 0;  // ports and edges, all nets

  OpenVinoSummary summary_;
  std::map<std::string, std::uint64_t, std::less<>> opsets_;
  std::set<std::string, std::less<>> element_types_;
  std::set<std::string, std::less<>> custom_;
};

// "1,3,224,224" into its dimensions; false when it is not a list of unsigned numbers. An empty
// shape is a scalar.
bool parse_shape(std::string_view text, std::vector<std::uint64_t>& dims, std::uint64_t max_kept, std::uint64_t& rank,
                 std::uint64_t& elements, bool& overflow);
bool parse_u64(std::string_view text, std::uint64_t& out);

}  // namespace tensorgate::detail::openvino
