#pragma once
// The SavedModel push validator: the protobuf wire reader (protobuf/wire_reader.hpp) under
// TensorFlow's schema (schema.hpp). saved_model.pb's meta graphs, their graphs and function
// libraries stream node by node; what a check needs of a node (its op, name, and the string
// attributes that say where it reads or writes) is gathered while it streams and judged when
// it ends. keras_metadata.pb's objects are judged one at a time. Made by
// make_savedmodel_validator (tensorgate/savedmodel.hpp).
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "protobuf/wire_reader.hpp"
#include "savedmodel/schema.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::savedmodel {

// The node being read (nodes do not nest: a function's nodes are not inside a node).
struct NodeState {
  std::string name, op;
  std::uint64_t pos = 0;
  std::string function;    // the function of the library it belongs to, or "" in a graph
  bool file_url = false;      // a string attribute names a file:// URL
  bool file_region = false;   // a string attribute names a memory region that is a file
  bool unjudged = false;      // a string attribute could not be read (too long before its key)
};

// An attribute entry being read; entries nest through functions' attribute lists.
struct AttrFrame {
  std::string key;
  bool has_key = false;
};

// A Keras object being read.
struct KerasObject {
  std::string path, identifier;
  std::uint64_t pos = 0;
};

class SavedModelValidator final : public Validator, private protobuf::WireHandler {
 public:
  SavedModelValidator(const Limits& limits, MemoryBudget* budget);

  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return finished_ || reader_.fault() ? 0 : 1u << 16; }
  // The rest of a field the schema skips (a constant's tensor, the object graph, doc strings):
  // a face that can seek passes over it unread.
  std::uint64_t bytes_skippable() const override { return done() ? 0 : reader_.skippable(); }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  protobuf::LenChoice on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length, std::uint64_t pos) override;
  void on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override;
  void on_fixed32(std::uint16_t, std::uint32_t, std::uint32_t, std::uint64_t) override {}
  void on_fixed64(std::uint16_t, std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t pos) override;
  void on_message_end(std::uint16_t kind, std::uint64_t pos) override;
  void start_message(Kind kind, std::uint64_t pos);
  bool keep_attribute_string(std::uint64_t length);
  void attribute_string(std::string_view s);

  // tf_nodes.cpp: nodes as they end, the op counts, and the checks at the end.
  void node_done();
  void count_op(std::string_view op);
  void note_dangerous(std::string_view op, std::string_view reason);
  void end_checks();
  // tf_signatures.cpp: the meta graphs' tags and signatures.
  void signature_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes);
  void signature_end(std::uint16_t kind);
  // keras_objects.cpp: an object of keras_metadata.pb when it ends.
  void keras_object_done();
  void count_keras_class(std::string_view class_name);

  void note_wire_fault();
  bool done() const { return finished_ || aborted_ || reader_.fault(); }
  // Whether the summary's lists may hold `bytes` more (kMaxListedBytes) and the shared budget
  // covers them; if so they do. A refusal of the budget stops the check (aborted,
  // savedmodel-memory-budget).
  bool take_listed(std::uint64_t bytes);
  // `bytes` more held (a hash table's entry), charged to the budget.
  bool charge(std::uint64_t bytes);
  Progress progress() const;
  Report report() const;

  Limits limits_;
  BudgetHold memory_;  // what grows with the file, charged to the shared budget
  FindingList findings_;
  protobuf::WireReader reader_;
  std::optional<Aborted> aborted_;
  std::uint64_t bytes_seen_ = 0;
  bool finished_ = false;
  bool fault_noted_ = false;

  TopMessage top_ = TopMessage::unknown;
  NodeState node_;
  std::string function_;             // the function being read (its name once read), or ""
  bool in_function_ = false;
  std::vector<AttrFrame> attrs_;     // the attribute entries open, innermost last
  boost::unordered_flat_set<std::string> functions_;  // the library's function names (TF.custom-op)
  bool functions_complete_ = true;   // all of them (Limits::savedmodel.max_listed_ops)
  std::uint64_t listed_bytes_ = 0;   // held by the summary's lists (kMaxListedBytes)
  boost::unordered_flat_map<std::string, std::size_t> op_index_;  // op -> summary.ops
  boost::unordered_flat_map<std::string, std::size_t> keras_index_;  // class -> summary.keras_classes
  // The meta graph, signature and tensor being read, listed when they end.
  std::optional<SavedModelMetaGraph> meta_graph_;
  std::optional<SavedModelSignature> signature_;
  std::optional<SavedModelTensor> tensor_;
  bool tensor_is_output_ = false;
  KerasObject keras_;
  std::string keras_metadata_;
  SavedModelSummary summary_;
};

inline constexpr std::size_t kMaxListedName = 4096;  // a name or string in the summary
inline constexpr std::size_t kMaxListedDims = 64;    // a signature tensor's shape; deeper ranks are cut
// The bytes of names and shapes the summary's lists hold together: past them items are counted,
// not listed, so that a file of many long names costs no more than this.
inline constexpr std::uint64_t kMaxListedBytes = 64ull << 20;
// What a hash set or map entry costs beside its key's bytes (charged to the budget).
inline constexpr std::uint64_t kSlotBytes = 64;
// An attribute string met before its key is read when it is at most this long (a URL or a path);
// a longer one makes the node's string attributes unjudged.
inline constexpr std::uint64_t kMaxUnkeyedString = 4096;

// A name cut as the summary lists it.
std::string cut(std::string_view s);
// TensorFlow's name of a DataType ("float32", "int64", "float32_ref"), "DT_<n>" when unknown.
std::string dtype_name(std::uint64_t type);

}  // namespace tensorgate::detail::savedmodel
