#pragma once
// The GGUF push validator: a resumable state machine (as a wuffs decoder) over
//   header -> key-value pairs -> tensor infos -> padding -> data (counted, never stored).
// It buffers one key or tensor name at a time and streams everything else; arrays nest through
// an explicit stack, never recursion. Every rule but "the data ends where the tensors end" is
// decided when the last tensor info is read (the early verdict).
//
// Size hint: with the file size known, an announced count or length that cannot fit in the
// bytes that remain is refuted at once. Each such check is a Checkpoint: without the size, the
// same checks run at the end of the input, and findings made after a refuted checkpoint are
// rolled back, so that the report never depends on whether the size was known.
#include <array>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/duplicate_names.hpp"
#include "common/seeded_hash.hpp"
#include "common/uint128.hpp"
#include "arena.hpp"
#include "common/finding_list.hpp"
#include "gg6_tokenizer.hpp"
#include "chat_template/scan.hpp"
#include "metadata_facts.hpp"
#include "table_access.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/sha256.hpp"
#include "tensorgate/validator.hpp"
#include "utf8_stream.hpp"

namespace tensorgate::detail::gguf {

enum class State : std::uint8_t {
  magic, version, tensor_count, kv_count,                       // header
  key_len, key_bytes, value_type,                               // a key-value pair
  scalar, str_len, str_bytes, arr_type, arr_count, arr_bulk,    // values
  name_len, name_bytes, n_dims, dim, tensor_type, tensor_offset,  // a tensor info
  data, stopped, finished,
};

enum class StrKind : std::uint8_t { key, value, element, name };
enum class Unit : std::uint8_t { header, kv, tensor };

struct Frame {  // one open array
  std::uint32_t elem_type;
  std::uint64_t left;  // elements not yet complete, the current one included
};

struct Checkpoint {
  uint128 min_end;  // the item cannot end before this file position
  FindingList::Mark mark;
  bool header;      // the header's counts; otherwise a string or array of the current unit
};

// The name of a tensor for a finding, when it is known.
inline std::optional<std::string_view> name_of(const GgufTensorTable::Record& r) {
  if (!r.name_known) return std::nullopt;
  return r.name;
}

// Keyed per process (seeded_hash.hpp): nobody can prepare names that all collide.
struct StringHash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
};
using StringSet = boost::unordered_flat_set<std::string_view, StringHash>;


// The field being read: up to 8 bytes, possibly split between chunks (validator.cpp).
struct FieldReader {
  std::array<unsigned char, 8> scratch{};
  unsigned need = 0, have = 0;
  std::uint64_t pos = 0;  // where the field being read (or just read) starts
  unsigned magic_have = 0;
};

// The header (gg1_header.cpp).
struct HeaderFields {
  std::uint32_t version = 0;
  bool big_endian = false;
  unsigned len_bytes = 8;  // counts, lengths and dims: 4 bytes in version 1
  std::uint64_t n_tensors = 0, n_kv = 0;
  std::uint64_t end = 0;
};

// The unit (key-value pair or tensor info) being read, for truncation findings.
struct UnitPosition {
  Unit kind = Unit::header;
  std::uint64_t index = 0;
  std::uint64_t start = 0;
};

// The key-value pair being read (gg2_metadata.cpp, gg3_ggw_metadata_facts.cpp).
struct KvReader {
  std::string_view key;  // valid once the key is complete
  KeyRole role = KeyRole::none;
  ValueShape shape;
  std::optional<IntValue> int_value;
  std::uint64_t scalar_bits = 0;  // the last scalar value read, as decoded
  std::string retained;  // a string value the summary shows (cut at kRetain bytes)
  std::optional<Sha256> retained_sha;  // the digest of a summary string longer than kRetain
  std::uint64_t retained_len = 0;
  bool utf8_warned = false, nested_warned = false, bool_warned = false;
  bool duplicate = false;  // the key repeats an earlier one: its value is not used
  std::uint32_t array_elem = 0;  // the element type of the array whose count comes next
  std::array<Frame, kGgufMaxArrayDepth> frames{};
  unsigned depth = 0;
  std::uint64_t bulk_left = 0;
  bool bulk_bool = false;
};

// The string being read: a key, a value, an array element or a tensor name.
struct StringReader {
  explicit StringReader(const ChatTemplateLimits& limits) : template_scan(limits) {}
  StrKind kind = StrKind::key;
  std::uint64_t left = 0;
  std::uint64_t pos = 0;  // where its length field starts
  bool buffer = false, retain = false, scan = false;
  bool vocab = false;  // an element of tokenizer.ggml.tokens or .merges, gathered (GG6)
  std::uint64_t vocab_cut = 0;  // its bytes past TokenizerCheck::kMaxKept, not gathered
  char vocab_last = 0;          // its last byte
  std::string buf;
  Utf8Stream utf8;
  ct::TemplateScan template_scan;  // a chat template value (family CT), as it streams
};

// The tensor info being read (gg4_tensor_infos.cpp).
struct TensorInfoReader {
  GgufTensorTable::Record cur;
  unsigned dim_index = 0;
  std::uint64_t type = 0;  // as read: may be anything
  std::uint64_t type_pos = 0;
  std::array<std::uint64_t, 4> dim_pos{};
};

// What the metadata and tensor infos established.
struct Established {
  MetaFacts facts;
  std::vector<std::unique_ptr<char[]>> key_blocks;
  ArenaWriter keys_arena{key_blocks};
  StringSet keys;
  std::shared_ptr<GgufTensorTable> table = std::make_shared<GgufTensorTable>();
  std::optional<ArenaWriter> names_arena;
  DuplicateNames names;    // the known names, for duplicates after the infos
  bool nul_names = false;  // a name holds a NUL: llama.cpp cuts it there (GGW.name-collision)
  std::optional<std::uint64_t> max_block;  // largest N of the blk.N. tensor names
  std::string llama_refuses;  // the first reason llama.cpp's reader refuses the file
};

// Set when the tensor infos are complete (gg5_layout.cpp).
struct Layout {
  std::uint64_t alignment = 32;
  uint128 data_start = 0;
  uint128 required_end = 0;  // the file must reach this position
  uint128 padded_end = 0;    // ... and should end at this one
  std::optional<std::size_t> required_by;  // the tensor whose data ends last
  bool data_checked = false;
  std::optional<GgufSummary> summary;
};

class GgufValidator final : public Validator {
 public:
  GgufValidator(const Limits& limits, MemoryBudget* budget);
  ~GgufValidator() override;

  void set_total_size(std::uint64_t size) override { total_ = size; }
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override;
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override;
  Report finish() override;

 private:
  // validator.cpp: the byte loop and its primitives.
  std::size_t step(const unsigned char* p, std::size_t n);
  std::size_t take_field(const unsigned char* p, std::size_t n);
  std::size_t take_string(const unsigned char* p, std::size_t n);
  std::size_t take_bulk(const unsigned char* p, std::size_t n);
  void expect(State s, unsigned bytes);
  std::uint64_t decode(unsigned bytes) const;
  void on_field(std::uint64_t v);
  void stop() { state_ = State::stopped; }
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);
  bool charge(std::size_t bytes);
  bool push_checkpoint(uint128 min_end, bool header);
  void pop_checkpoint() { --checkpoints_used_; }
  void refute(const Checkpoint& c, std::uint64_t file_size);
  void add_truncation(std::uint64_t file_size);
  Progress progress() const;
  std::uint64_t metadata_lower_bound() const;

  // gg1_header.cpp
  std::size_t take_magic(const unsigned char* p, std::size_t n);
  void on_version(std::uint32_t raw);
  void on_counts();
  void start_kv_section();

  // gg2_metadata.cpp
  void start_kv();
  void on_key_length(std::uint64_t len);
  void on_key(std::string_view key);
  void start_value(std::uint32_t type);
  void on_scalar(std::uint64_t raw);
  void start_string(std::uint64_t len, StrKind kind);
  void on_string_done();
  void on_array_type(std::uint32_t elem);
  void on_array_count(std::uint64_t count);
  void start_element(std::uint32_t type);
  void close_array();
  void after_value();
  void kv_done();
  void check_bool_run(const unsigned char* p, std::size_t n);
  std::size_t fast_string_elements(const unsigned char* p, std::size_t n);
  bool vocab_elements() const;
  void on_vocab_element(const TokenizerCheck::Element& e, std::uint64_t pos);

  // gg3_ggw_metadata_facts.cpp
  void begin_value_facts(std::uint32_t type);
  void record_kv_facts();
  void keep_scalar();
  void check_alignment();
  void check_metadata();
  void check_vocabulary_text();
  void note_string_utf8(std::uint64_t at);
  void judge_template();
  void record_split(std::optional<std::uint64_t>& slot, std::uint32_t llama_type);

  // gg4_tensor_infos.cpp
  void start_tensor_infos();
  void start_tensor();
  void on_name_length(std::uint64_t len);
  void on_name(std::string_view name);
  void on_n_dims(std::uint64_t n);
  void on_dim(std::uint64_t d);
  void on_tensor_type(std::uint64_t t);
  void tensor_done(std::uint64_t offset);
  void size_tensor(GgufTensorTable::Record& r);
  // At the end of the tensor infos: GG4.duplicate-name, and GGW.name-collision when a name
  // holds a NUL (gg4_tensor_infos.cpp).
  void report_duplicate_names();
  void check_name_collisions();
  std::uint64_t dims_pos() const { return info_.cur.n_dims ? info_.dim_pos[0] : info_.type_pos; }

  // gg5_layout.cpp
  void infos_done();
  void check_layout();
  void check_overlaps();
  void check_running_sum();
  void check_block_count();
  void check_data_end(std::uint64_t file_size);
  void note_llama_refuses(std::string reason);
  void build_summary();

  // validator_report.cpp
  void add_end_of_input_findings();

  Limits limits_;
  MemoryBudget* budget_;
  std::size_t budget_held_ = 0;
  std::size_t memory_used_ = 0;
  FindingList findings_;
  std::optional<Aborted> aborted_;
  State state_ = State::magic;
  std::optional<std::uint64_t> total_;
  std::uint64_t bytes_seen_ = 0;
  std::uint64_t pos_ = 0;  // bytes the parser has consumed (the file position it is at)

  // The state of each section, as the byte loop goes through them.
  FieldReader field_;
  HeaderFields header_;
  UnitPosition unit_;
  KvReader kv_;
  StringReader str_{limits_.chat_template};
  TensorInfoReader info_;
  std::array<Checkpoint, kGgufMaxArrayDepth + 4> checkpoints_{};
  unsigned checkpoints_used_ = 0;
  Established est_;
  TokenizerCheck tokenizer_;
  Layout layout_;
};

inline constexpr std::size_t kRetain = 4096;  // summary strings are cut here
inline constexpr std::uint64_t kMaxName = 64;  // GGML_MAX_NAME: spec's bound on tensor names

}  // namespace tensorgate::detail::gguf
