#include "savedmodel/validator.hpp"

#include <algorithm>
#include <cassert>

#include "common/report_of.hpp"
#include "savedmodel/ops.hpp"

namespace tensorgate {
namespace detail::savedmodel {
namespace {

protobuf::WireLimits wire_limits(const Limits& limits) {
  return {limits.savedmodel.max_depth, limits.savedmodel.max_field_bytes};
}

}  // namespace

std::string cut(std::string_view s) { return std::string(s.substr(0, kMaxListedName)); }

SavedModelValidator::SavedModelValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), memory_(budget), findings_(limits.max_findings), reader_(*this, wire_limits(limits)) {}

Progress SavedModelValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  if (!reader_.fault()) reader_.feed({reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size()});
  note_wire_fault();
  return progress();
}

Progress SavedModelValidator::skip(std::uint64_t count) {
  assert((bytes_wanted() == 0 || count <= bytes_skippable()) && "skip() only past the bytes the validator looks at");
  if (!done()) reader_.skip(std::min(count, reader_.skippable()));
  bytes_seen_ += count;
  return progress();
}

Report SavedModelValidator::finish() {
  if (!finished_) {
    finished_ = true;
    if (!reader_.fault()) reader_.finish();
    note_wire_fault();
    if (!reader_.fault() && !aborted_) end_checks();
  }
  return report();
}

Progress SavedModelValidator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

bool SavedModelValidator::take_listed(std::uint64_t bytes) {
  if (bytes > kMaxListedBytes - listed_bytes_ || !charge(bytes)) return false;
  listed_bytes_ += bytes;
  return true;
}

bool SavedModelValidator::charge(std::uint64_t bytes) {
  if (aborted_) return false;
  if (memory_.add(bytes)) return true;
  aborted_ = Aborted{"savedmodel-memory-budget",
                     "no memory left in the shared budget for " + std::to_string(memory_.used()) +
                         " bytes of the file's summary, op counts and names",
                     AbortKind::memory_budget};
  reader_.stop();
  return false;
}

Report SavedModelValidator::report() const {
  Report r = report_of(Format::savedmodel, bytes_seen_, findings_, aborted_);
  if (!aborted_) {
    SavedModelSummary s = summary_;
    if (s.file.empty()) s.file = top_ == TopMessage::keras_metadata ? "keras_metadata" : "saved_model";
    r.summary = std::move(s);
  }
  return r;
}

void SavedModelValidator::note_wire_fault() {
  const auto& fault = reader_.fault();
  if (!fault || fault_noted_) return;
  fault_noted_ = true;
  if (fault->error == protobuf::WireError::kept_too_large) {
    aborted_ = Aborted{"savedmodel-field-bytes",
                       "a name, string or metadata field is larger than this checker keeps (" +
                           std::to_string(limits_.savedmodel.max_field_bytes) + " bytes)",
                       AbortKind::limit};
    return;
  }
  findings_.add(Rule::tf_wire, std::string(protobuf::wire_error_text(fault->error)), fault->pos);
}

// --- the schema's events ------------------------------------------------------------------------

protobuf::LenChoice SavedModelValidator::on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length,
                                                std::uint64_t pos) {
  // The top message's first length-delimited field says which file this is: SavedMetadata's
  // objects are field 1, a SavedModel's meta graphs field 2 (its field 1 is a number).
  if (kind == root && top_ == TopMessage::unknown) top_ = field == 1 ? TopMessage::keras_metadata : TopMessage::saved_model;
  const bool keep_string = (kind == attr_value || kind == list_value) && field == 2 && keep_attribute_string(length);
  const protobuf::LenChoice c = len_choice(kind, field, top_, keep_string);
  if (c.action == protobuf::LenAction::message) start_message(static_cast<Kind>(c.kind), pos);
  return c;
}

// An attribute's string is read when its key is one the checks judge, or when the key has not
// come yet (protobuf fields may come in any order) and the string is short; a longer one before
// its key leaves the node's attributes unjudged, and a dangerous op is then taken at its worst.
bool SavedModelValidator::keep_attribute_string(std::uint64_t length) {
  if (attrs_.empty()) return false;
  const AttrFrame& f = attrs_.back();
  if (f.has_key) return is_judged_attribute(f.key);
  if (length <= kMaxUnkeyedString) return true;
  node_.unjudged = true;
  return false;
}

void SavedModelValidator::attribute_string(std::string_view s) {
  if (attrs_.empty()) return;
  const AttrFrame& f = attrs_.back();
  if (!f.has_key || f.key == "debug_urls" || f.key == "output_stream") node_.file_url = node_.file_url || s.starts_with("file://");
  if (!f.has_key || f.key == "memory_region_name")
    node_.file_region = node_.file_region || !s.starts_with("memmapped_package://");
}

void SavedModelValidator::start_message(Kind kind, std::uint64_t pos) {
  switch (kind) {
    case meta_graph: meta_graph_.emplace(); break;
    case function:
      ++summary_.functions;
      in_function_ = true;
      function_.clear();
      break;
    case node:
      ++(in_function_ ? summary_.function_nodes : summary_.nodes);
      node_ = NodeState{};
      node_.pos = pos;
      node_.function = function_;
      break;
    case attr_entry: attrs_.emplace_back(); break;
    case signature_entry: signature_.emplace(); break;
    case input_entry:
    case output_entry:
      tensor_.emplace();
      tensor_is_output_ = kind == output_entry;
      break;
    case tensor_shape:
      if (tensor_) tensor_->has_shape = true;
      break;
    case keras_object:
      keras_ = KerasObject{};
      keras_.pos = pos;
      keras_metadata_.clear();
      break;
    default: break;
  }
}

void SavedModelValidator::on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t) {
  switch (kind) {
    case root:
      if (field != 1 || top_ == TopMessage::keras_metadata) break;
      top_ = TopMessage::saved_model;
      summary_.schema_version = value;
      break;
    case tensor_info:
      if (field == 2 && tensor_) tensor_->dtype = std::string(dtype_name(value));
      break;
    case tensor_shape:
      if (field == 3 && value != 0 && tensor_) tensor_->has_shape = false;  // unknown_rank
      break;
    case tensor_dim:
      if (field == 1 && tensor_ && tensor_->shape.size() < kMaxListedDims) tensor_->shape.push_back(static_cast<std::int64_t>(value));
      break;
    default: break;
  }
}

void SavedModelValidator::on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t) {
  switch (kind) {
    case keras_object:
      if (field == 3) keras_.path = cut(bytes);
      else if (field == 4) keras_.identifier = cut(bytes);
      else keras_metadata_.assign(bytes);
      break;
    case meta_info:
      if (!meta_graph_) break;
      if (field == 5) meta_graph_->tensorflow_version = cut(bytes);
      else if (meta_graph_->tags.size() < limits_.savedmodel.max_listed_values && take_listed(bytes.size() + 32))
        meta_graph_->tags.push_back(cut(bytes));
      break;
    case op_def:
      function_ = cut(bytes);
      if (functions_.size() < limits_.savedmodel.max_listed_ops && charge(kSlotBytes + function_.size())) functions_.insert(function_);
      else functions_complete_ = false;
      break;
    case node:
      if (field == 1) node_.name = cut(bytes);
      else node_.op = cut(bytes);
      break;
    case attr_entry:
      if (attrs_.empty()) break;
      attrs_.back().key = cut(bytes);
      attrs_.back().has_key = true;
      break;
    case attr_value:
    case list_value: attribute_string(bytes); break;
    default: signature_bytes(kind, field, bytes); break;
  }
}

void SavedModelValidator::on_message_end(std::uint16_t kind, std::uint64_t) {
  switch (kind) {
    case node: node_done(); break;
    case function:
      in_function_ = false;
      function_.clear();
      break;
    case attr_entry:
      if (!attrs_.empty()) attrs_.pop_back();
      break;
    case meta_graph:
      if (meta_graph_ && summary_.meta_graphs.size() < limits_.savedmodel.max_listed_values)
        summary_.meta_graphs.push_back(std::move(*meta_graph_));
      else
        ++summary_.meta_graphs_not_listed;
      meta_graph_.reset();
      break;
    case keras_object: keras_object_done(); break;
    default: signature_end(kind); break;
  }
}

}  // namespace detail::savedmodel

std::unique_ptr<Validator> make_savedmodel_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::savedmodel::SavedModelValidator>(limits, budget);
}

}  // namespace tensorgate
