#pragma once
// The Boost.JSON basic_parser handler that checks a safetensors header against ST2 (duplicate
// keys after unescaping, one object), ST3 (__metadata__) and ST4 (tensor entries) in one pass.
// It never recurses: nesting is an explicit frame stack, bounded by Limits::max_json_depth
// (which basic_parser enforces before calling us).
//
// Its parts: st2_keys.cpp (keys: the root's tensor names and __metadata__, duplicate keys at
// every level, an entry's field names), header_events.cpp (values and containers, routed by
// what the position wants), st4_entry_checks.cpp (a value of the wrong type, and the ST4 checks
// of a finished entry's fields and size). st2_header_json.cpp drives the parser over the header.
#include <boost/json/basic_parser.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "common/duplicate_names.hpp"
#include "common/finding_list.hpp"
#include "common/seeded_hash.hpp"
#include "safetensors/table_allowance.hpp"
#include "safetensors/table_builder.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate::detail {

// Hashes and compares StrRefs by the text they refer to.
struct RefHash {
  using is_avalanching = std::true_type;  // seeded_hash mixes fully: no post-mixing needed
  const TableBuilder* table;
  std::size_t operator()(StrRef r) const { return seeded_hash(table->str(r)); }
};
struct RefEq {
  const TableBuilder* table;
  bool operator()(StrRef a, StrRef b) const { return table->str(a) == table->str(b); }
};
using KeySet = boost::unordered_flat_set<StrRef, RefHash, RefEq>;

// The fields of a tensor entry, one bit each in HeaderHandler's Entry::seen and Entry::bad.
inline constexpr std::uint8_t kDtypeBit = 1, kShapeBit = 2, kOffsetsBit = 4;

class HeaderHandler {
 public:
  using error_code = boost::json::error_code;
  using string_view = boost::json::string_view;
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  // `expected_tensors` sizes the list of names up front.
  HeaderHandler(TableBuilder& table, FindingList& findings, TableAllowance& allowance,
                std::uint32_t max_depth, std::size_t expected_tensors);

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&);
  bool on_object_end(std::size_t, error_code&);
  bool on_array_begin(error_code&);
  bool on_array_end(std::size_t, error_code&);
  bool on_key_part(string_view s, std::size_t, error_code&);
  bool on_key(string_view s, std::size_t, error_code&);
  bool on_string_part(string_view s, std::size_t, error_code&);
  bool on_string(string_view s, std::size_t, error_code&);
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t v, string_view text, error_code&);
  bool on_uint64(std::uint64_t v, string_view text, error_code&);
  bool on_double(double v, string_view text, error_code&);
  bool on_bool(bool, error_code&);
  bool on_null(error_code&);
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

  // Reports the duplicate tensor names (ST2) once the parse is over, whatever its outcome.
  void report_duplicate_names();

  bool root_seen() const { return root_seen_; }
  // Header position of the last token whose text lay in the header (for findings).
  std::uint64_t last_pos() const { return last_pos_; }
  // The reference reader rejects something this file holds that is valid here.
  bool reference_rejects() const { return reference_rejects_; }

 private:
  enum class Ctx : std::uint8_t { root, metadata, entry, shape, offsets, skip_object, skip_array };
  enum class Want : std::uint8_t {
    root, metadata, entry, meta_value, dtype, shape, offsets, dim, offset, skip
  };
  enum class Kind : std::uint8_t { object, array, string, integer, number, boolean, null };
  struct Frame {
    Ctx ctx;
    std::unique_ptr<KeySet> keys;  // generic objects only, created at the first key
  };
  // The tensor entry being parsed (fields collected before the record is final).
  struct Entry {
    std::size_t record = 0;
    std::uint8_t seen = 0;      // bit per known field: 1 dtype, 2 shape, 4 data_offsets
    std::uint8_t bad = 0;       // same bits: the field was malformed (already reported)
    bool is_object = false;
    std::uint32_t offsets_count = 0;
    std::uint64_t offsets[2] = {0, 0};
  };

  // What the next value means: arrays decide by their kind, objects by the last key.
  Want current_want() const {
    if (frames_.empty()) return Want::root;
    switch (frames_.back().ctx) {
      case Ctx::shape: return Want::dim;
      case Ctx::offsets: return Want::offset;
      case Ctx::skip_array: return Want::skip;
      default: return want_;
    }
  }
  void note_pos(string_view s) {
    if (std::less_equal<const char*>{}(header_begin_, s.data()) && std::less<const char*>{}(s.data(), header_end_))
      last_pos_ = static_cast<std::uint64_t>(s.data() - header_begin_);
  }
  StrRef collect(string_view s, bool final);
  void value(Kind kind, string_view text = {}, std::uint64_t integer = 0);
  void push(Ctx ctx);
  void wrong_type(Want want, Kind kind);
  void on_root_key(StrRef key);
  void on_entry_key(StrRef key);
  void on_generic_key(StrRef key, bool in_metadata);
  void on_dtype(std::string_view name);
  void on_dim(Kind kind, string_view text, std::uint64_t v);
  void on_offset(Kind kind, string_view text, std::uint64_t v);
  void end_shape();
  void end_offsets();
  void end_entry();
  void check_size(TensorTable::Record& rec);
  void report_field(std::uint8_t bit, Rule rule, std::string message);
  void add(Rule rule, std::string message, std::optional<std::uint64_t> pos = std::nullopt);
  // Charges what the table and the name list hold now; false (with `ec` set, which stops the
  // parser) once the memory budget refuses. Called per key and value: the common case is one
  // comparison.
  bool covered(error_code& ec) {
    if (!tick(ec)) return false;
    const std::size_t bytes =
        table_.bytes() + name_key_bytes_ + key_set_bytes_ + dims_.capacity() * sizeof(std::uint64_t);
    return bytes <= covered_bytes_ || cover_more(bytes, ec);
  }
  bool cover_more(std::size_t bytes, error_code& ec);
  // Counts an event; every TableAllowance::kDeadlinePollEvents events asks the deadline, and
  // once it has passed sets `ec` (which stops the parser). Every event calls this or covered().
  bool tick(error_code& ec) {
    if (--ticks_left_ != 0) return true;
    ticks_left_ = TableAllowance::kDeadlinePollEvents;
    if (allowance_.time_left()) return true;
    ec = make_error_code(boost::system::errc::timed_out);
    return false;
  }
  std::optional<std::string_view> entry_name() const;

  TableBuilder& table_;
  FindingList& findings_;
  TableAllowance& allowance_;
  std::size_t covered_bytes_ = 0;   // what allowance_ covers now
  std::uint32_t ticks_left_ = TableAllowance::kDeadlinePollEvents;
  std::size_t name_key_bytes_ = 0;  // the duplicate-name scan's keys and their sort buffer
  // The open objects' key sets (a metadata map of millions of keys), by their slots: a slot
  // holds a StrRef, and each group of 15 slots 16 bytes more.
  static constexpr std::size_t kKeySetSlotBytes = sizeof(StrRef) + 2;
  std::size_t key_set_bytes_ = 0;
  const char* header_begin_;  // the header text, for "does this string lie in it"
  const char* header_end_;
  std::vector<Frame> frames_;
  Want want_ = Want::root;
  bool root_seen_ = false;
  bool metadata_seen_ = false;
  bool in_entry_ = false;
  Entry entry_;
  StrRef meta_key_;
  std::uint64_t meta_key_pos_ = 0;
  DuplicateNames names_;               // tensor names, for duplicates
  std::vector<std::uint64_t> dims_;    // the shape being parsed
  std::uint64_t last_pos_ = 0;
  bool reference_rejects_ = false;
  // Pieces of a key or string delivered in parts (escapes, or very long strings).
  bool collecting_ = false;
  StrRef collected_;
  std::uint64_t collected_pos_ = 0;
};

}  // namespace tensorgate::detail
