#pragma once
// The ONNX push validator: the protobuf wire reader (protobuf/wire_reader.hpp) under onnx.proto's
// schema (schema.hpp). Each message's fields arrive in order; what a check needs of a message
// (a tensor's type, dims and data sizes, a node's op type and domain) is gathered while it
// streams and judged when it ends. Raw data is counted, never held, and a caller may skip it
// unread (bytes_skippable()). What grows with the input (the summary's lists, the op counts and
// their index, the main graph's names) is charged to the shared memory budget. Made by
// make_onnx_validator (tensorgate/onnx.hpp).
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "common/uint128.hpp"
#include "onnx/schema.hpp"
#include "protobuf/wire_reader.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::onnx {

// The tensor being read: tensors do not nest, so one is enough.
struct TensorState {
  Kind kind = initializer;
  std::uint64_t pos = 0;
  std::string name;
  std::uint64_t data_type = 0;
  std::vector<std::uint64_t> dims;  // the first kMaxListedDims
  std::uint64_t rank = 0;
  uint128 elements = 1;
  bool negative_dim = false;
  std::uint64_t raw_bytes = 0;
  bool has_raw = false;
  std::uint64_t raw_fields = 0;  // raw_data fields: one is one run of bytes in the file
  std::uint64_t raw_pos = 0;     // where the last one's bytes start
  // Values in the typed fields: float_data, int32_data, int64_data, double_data, uint64_data,
  // string_data.
  std::uint64_t floats = 0, int32s = 0, int64s = 0, doubles = 0, uint64s = 0, strings = 0;
  std::uint64_t data_location = 0;
  bool external = false;  // any external_data entry
  std::optional<std::string> location, offset, length;
  std::string entry_key, entry_value;  // the external_data entry being read
};

// An op type's key in the op counts and among the model's functions: its domain ("ai.onnx" is
// ""), a NUL, its type; each cut at 256 bytes.
std::string op_key(std::string_view domain, std::string_view op_type);

// A node being read; nodes nest through their attributes' graphs.
struct NodeState {
  std::string op_type, domain;
  std::uint64_t pos = 0;
};

class OnnxValidator final : public Validator, private protobuf::WireHandler {
 public:
  OnnxValidator(const Limits& limits, MemoryBudget* budget);

  // The size is not passed to the wire reader: a length past the end is then found where the
  // input ends, as it is without the size, so the report never depends on whether it was known.
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  // Once the bytes are not protobuf, or a limit stopped the reader, the rest is only counted.
  std::uint64_t bytes_wanted() const override { return done() ? 0 : 1u << 16; }
  // Inside a field the schema skips (raw_data, string_data, a doc string): the rest of it, as
  // its length says, which a truncated input does not hold (the caller bounds it by the size).
  std::uint64_t bytes_skippable() const override { return done() ? 0 : reader_.skippable(); }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  // The schema's events (protobuf::WireHandler).
  protobuf::LenChoice on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length, std::uint64_t pos) override;
  void on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override;
  void on_fixed32(std::uint16_t kind, std::uint32_t field, std::uint32_t value, std::uint64_t pos) override;
  void on_fixed64(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override;
  void on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t pos) override;
  void on_message_end(std::uint16_t kind, std::uint64_t pos) override;
  void start_message(Kind kind, std::uint64_t pos);

  // ox_tensors.cpp: a tensor's fields and its checks when it ends.
  void tensor_value(std::uint32_t field, std::uint64_t value);
  void external_entry_done();
  void note_external_file(std::string_view location, uint128 reach);
  void tensor_done();
  void list_initializer(std::uint64_t elements, std::uint64_t bytes, std::string_view data);

  // ox_model.cpp: the model's fields, nodes, and the checks at the end.
  void node_done();
  void note_wire_fault();
  void model_checks();
  void operator_checks();
  void output_checks();
  // A node's output, a graph input or an initializer: a name the main graph's outputs may be.
  // Names are compared as the summary lists them: cut at kMaxListedName bytes.
  void note_main_name(std::string_view name, bool in_main_graph);
  bool directly_in_main_graph() const { return in_main_graph_ && inner_depth_ == 0 && nodes_.size() <= 1; }

  // Whether the summary's lists may hold `bytes` more (kMaxListedBytes); if so they do.
  bool take_listed(std::uint64_t bytes);
  // `bytes` more held while the input streams (`listed`: by the summary, which a report copies),
  // charged to the shared budget; false once it refused (aborted, onnx-memory-budget).
  bool charge(std::uint64_t bytes, bool listed);
  bool hold(std::uint64_t bytes) const;  // const: a report charges its copy of the summary
  void abort_with(std::string limit, std::string message, AbortKind kind);
  bool done() const { return finished_ || aborted_ || reader_.fault(); }
  Progress progress() const;
  Report report() const;

  Limits limits_;
  // What is held, charged to the shared budget (mutable: a report charges its copy of the
  // summary), and what of it the summary holds.
  mutable BudgetHold memory_;
  std::uint64_t summary_bytes_ = 0;
  FindingList findings_;
  protobuf::WireReader reader_;
  std::optional<Aborted> aborted_;
  std::uint64_t bytes_seen_ = 0;
  bool finished_ = false;
  bool fault_noted_ = false;

  bool has_ir_version_ = false;
  bool has_default_opset_ = false;  // listed or not
  TensorState tensor_;
  std::vector<NodeState> nodes_;
  NodeState function_;  // the FunctionProto being read: its name and domain
  bool in_main_graph_ = false;
  std::uint64_t inner_depth_ = 0;  // subgraphs and functions open: their names are their own
  // The names the main graph defines (OX.dangling-output), by a 64-bit hash each, in the order
  // met: a graph of 100,000 nodes then costs no copy of its names and no hash table, and the few
  // outputs are looked up once at the end (two names of one hash would hide one dangling output,
  // a warning, at odds of about n^2 / 2^64). Past Limits::onnx.max_listed_tensors names the
  // outputs are not judged.
  std::vector<std::uint64_t> main_names_;
  bool main_names_complete_ = true;
  boost::unordered_flat_set<std::string> local_functions_;  // op_key()s of the model's functions
  std::optional<OnnxOpset> opset_;   // the opset_import entry being read
  std::optional<OnnxValue> value_;   // the main graph input or output being read
  bool value_is_output_ = false;
  bool dim_listed_ = false;          // the main input's or output's dimension being read is listed
  std::uint64_t listed_bytes_ = 0;   // held by the summary's lists (kMaxListedBytes)
  boost::unordered_flat_map<std::string, std::size_t> op_index_;  // "domain\0op_type" -> summary.ops
  // Domains reported (custom ones, and those the policy denies), up to onnx.max_listed_ops.
  boost::unordered_flat_set<std::string> warned_domains_;
  boost::unordered_flat_map<std::string, std::size_t> external_files_;  // location -> summary.external_files
  OnnxSummary summary_;
};

// What a hash set or map entry costs beside its key's bytes (charged to the budget): the key
// and its value, twice over for the free slots a table keeps.
inline constexpr std::uint64_t kSlotBytes = 2 * (sizeof(std::string) + sizeof(std::size_t));
// What one name of the main graph costs in main_names_: its hash, twice over for the vector's
// growth.
inline constexpr std::uint64_t kMainNameBytes = 2 * sizeof(std::uint64_t);
inline constexpr std::size_t kMaxListedDims = 64;      // a summary's shape; deeper ranks are counted
inline constexpr std::size_t kMaxListedName = 4096;    // a name or string in the summary
// The bytes of names, locations and shapes the summary's lists of initializers, inputs, outputs
// and external files hold together: past them items are counted, not listed, so that a model
// of many long names costs no more than this however many the count limits allow.
inline constexpr std::uint64_t kMaxListedBytes = 64ull << 20;
// IR version 13 is onnx's newest published (2025-11-06); 14 is the one its main branch writes.
inline constexpr std::uint64_t kNewestIrVersion = 14;

}  // namespace tensorgate::detail::onnx
