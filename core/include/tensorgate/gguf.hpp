#pragma once
// GGUF, the model file format of ggml and llama.cpp (docs/rules.md, families GG1-GG5 and GGW):
// the ggml type table, the summary a valid file gets, and the push validator.
//
// A report's summary is a GgufSummary (tensorgate/summary.hpp). This header only declares Validator
// and Report: include tensorgate/validator.hpp to call the factories.
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;
struct Report;

// One entry of ggml's type table (ggml.c type traits): a tensor of this type stores its rows
// in blocks of `block_size` elements, each block `type_size` bytes.
struct GgmlTypeInfo {
  std::uint32_t id;
  std::string_view name;  // "Q4_K", as ggml_type_name() prints it
  std::uint32_t block_size;
  std::uint32_t type_size;
};
// The type with this id, or nothing for an unknown id or one whose support ggml removed.
const GgmlTypeInfo* ggml_type_info(std::uint32_t id);
// Every known type, in id order.
std::span<const GgmlTypeInfo> ggml_types();
// llama.cpp's name for a general.file_type value ("Q4_K_M", "MOSTLY_F16" written "F16"), or
// an empty view for values it does not name.
std::string_view gguf_file_type_name(std::uint32_t file_type);

// One tensor info of a valid file.
struct GgufTensorView {
  std::string_view name;
  std::uint32_t type;                    // a known ggml type id
  std::span<const std::uint64_t> shape;  // ne0 first, as the file stores it (n_dims entries)
  std::uint64_t offset;                  // relative to the data section
  std::uint64_t bytes;                   // exact byte size
};

// One tensor info as the validator keeps it.
struct GgufTensorRecord {
  std::string_view name;
  std::uint64_t dims[4] = {0, 0, 0, 0};
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;     // exact byte size when `sized`
  std::uint64_t info_pos = 0;  // where the tensor info starts in the file
  std::uint8_t n_dims = 0;
  std::uint8_t type = 0;
  bool sized = false;      // every GG4 check passed: `bytes` is exact
  bool duplicate = false;  // a second tensor info of a name already seen
  bool name_known = true;  // false when the name was too long to keep
};

// Records in chunks that never move. Why: a deque's 512-byte blocks were a malloc every six
// records, and a doubling vector copies everything at each growth; in a VM the first touch of
// fresh memory is the larger cost (~20 us a 4 KiB page here: 80 MB of records took ~0.5 s), so
// after a first chunk of 4,096 records (320 KiB, its pages touched as records land: a small
// file faults in a few) every chunk is one 2 MiB block, aligned and advised for a huge page.
class GgufRecordList {
 public:
  static constexpr std::size_t kFirst = 4096;
  static constexpr std::size_t kBigBytes = std::size_t{2} << 20;
  static constexpr std::size_t kBig = kBigBytes / sizeof(GgufTensorRecord);

  std::size_t size() const { return size_; }
  // Whether the next record opens a chunk, and the bytes that chunk allocates.
  bool full() const { return size_ == capacity_; }
  std::size_t next_chunk_bytes() const { return chunks_.empty() ? kFirst * sizeof(GgufTensorRecord) : kBigBytes; }
  GgufTensorRecord& operator[](std::size_t i) { return slot(i); }
  const GgufTensorRecord& operator[](std::size_t i) const { return slot(i); }
  void push_back(const GgufTensorRecord& r) {
    if (full()) add_chunk();
    ::new (&slot(size_)) GgufTensorRecord(r);
    ++size_;
  }

  class const_iterator {
   public:
    const_iterator(const GgufRecordList* list, std::size_t i) : list_(list), i_(i) {}
    const GgufTensorRecord& operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() { return ++i_, *this; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const GgufRecordList* list_;
    std::size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  static_assert(std::is_trivially_destructible_v<GgufTensorRecord>);  // chunks are freed, never destroyed
  struct Free {
    std::size_t align;
    void operator()(GgufTensorRecord* p) const { ::operator delete(p, std::align_val_t{align}); }
  };
  GgufTensorRecord& slot(std::size_t i) const {
    if (i < kFirst) return chunks_[0].get()[i];
    const std::size_t j = i - kFirst;
    return chunks_[1 + j / kBig].get()[j % kBig];
  }
  void add_chunk();  // core/src/gguf/record_list.cpp

  std::vector<std::unique_ptr<GgufTensorRecord, Free>> chunks_;
  std::size_t size_ = 0, capacity_ = 0;
};

// The tensor infos of a file, in file order, stored compactly (names in one arena).
class GgufTensorTable {
 public:
  using Record = GgufTensorRecord;

  std::size_t size() const { return records_.size(); }
  const Record& record(std::size_t i) const { return records_[i]; }
  GgufTensorView operator[](std::size_t i) const {
    const Record& r = records_[i];
    return {r.name, r.type, std::span<const std::uint64_t>(r.dims, r.n_dims), r.offset, r.bytes};
  }

 private:
  friend class GgufTableBuilder;
  GgufRecordList records_;  // grows with the infos read, never moves
  std::vector<std::unique_ptr<char[]>> name_blocks_;  // never move: names point into them
};

// What each ggml type contributes to a file.
struct GgmlTypeTotals {
  std::uint32_t type;            // ggml type id
  std::uint64_t tensors = 0;
  std::uint64_t parameters = 0;  // elements
  std::uint64_t bytes = 0;
};

// One scalar key-value pair of the metadata (a number, a bool or a short string), kept for
// checks against a model's own configuration (the conversion audit compares head counts, RoPE
// base, norm epsilon... with config.json). First occurrences only; at most
// Limits::gguf.max_scalars_kept pairs, keys and strings of at most Limits::gguf.max_scalar_bytes
// bytes (longer ones are not kept), so the validator's memory stays bounded whatever the file
// holds.
// A summary string (general.architecture, general.name, tokenizer.ggml.model) longer than the
// 4096 bytes the summary keeps: its full length and digest, so a report can state the cut.
struct GgufStringCut {
  std::string key;
  std::uint64_t bytes = 0;
  std::string sha256;
};

struct GgufScalar {
  std::string key;
  std::uint32_t type = 0;  // GGUF value type: 0-7 or 10-12 (numbers, bool), 8 (string)
  std::uint64_t bits = 0;  // numbers and bools: the value's bytes in host order, zero-extended
  std::string text;        // strings
};

// What a person or a hub page wants to know about a valid GGUF file. Strings copied from the
// file are cut at 4096 bytes (cut_strings says which, with their length and digest). Totals saturate at 2^64-1.
struct GgufSummary {
  std::uint32_t version = 0;
  bool big_endian = false;
  std::uint64_t alignment = 32;
  std::uint64_t kv_count = 0;
  std::uint64_t tensor_count = 0;
  std::uint64_t data_offset = 0;  // where the data section starts
  std::uint64_t data_length = 0;  // bytes from there to the end of the last tensor's data
  std::uint64_t parameters = 0;
  std::uint64_t bytes = 0;
  std::vector<GgmlTypeTotals> by_type;  // type id order, types present only
  std::optional<std::string> architecture;  // general.architecture
  std::optional<std::string> name;          // general.name
  std::optional<std::uint64_t> context_length;    // <arch>.context_length
  std::optional<std::uint64_t> block_count;       // <arch>.block_count
  std::optional<std::uint64_t> embedding_length;  // <arch>.embedding_length
  std::optional<std::string> tokenizer_model;     // tokenizer.ggml.model
  std::optional<std::uint64_t> vocab_size;        // elements of tokenizer.ggml.tokens
  bool chat_template = false;  // a tokenizer.chat_template is present (its text is never shown)
  // llama.cpp's gguf-split keys, when a non-negative integer: the shard's number (0-based), the
  // set's shard count, and the set's tensor count.
  std::optional<std::uint64_t> split_no, split_count, split_tensors_count;
  std::optional<std::uint32_t> file_type;             // general.file_type
  std::optional<std::uint32_t> quantization_version;  // general.quantization_version
  std::shared_ptr<const GgufTensorTable> tensors;     // the tensor infos, file order
  std::vector<GgufStringCut> cut_strings;             // summary strings longer than 4096 bytes
  std::vector<GgufScalar> scalars;                    // scalar pairs, file order (see GgufScalar)
};
// How the reports write it (core/src/gguf/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const GgufSummary*);

// A kept scalar (GgufSummary::scalars) read as a number, as the checks against a model's config
// read it (the conversion audit; the diff's name map between GGUF and safetensors names).
struct GgufScalarValue {
  bool integer = false;        // an integer type (negative values never equal a config field)
  bool negative = false;
  std::uint64_t magnitude = 0;
  std::optional<double> real;  // f32 or f64
  bool f64 = false;
  std::string text;            // how it reads in a message: "-3", "1e-05 (f32)"
};
// Nothing for strings, bools and unknown types.
std::optional<GgufScalarValue> gguf_scalar_value(const GgufScalar& s);
// The kept scalar of that key, or null.
const GgufScalar* find_gguf_scalar(const GgufSummary& g, std::string_view key);
// A kept scalar as the diff shows a metadata value: a string JSON-quoted, true or false, an
// integer with its type ("32 (u32)"), a float as its shortest exact text ("1e-05 (f32)").
std::string gguf_scalar_text(const GgufScalar& s);

std::unique_ptr<Validator> make_gguf_validator(const Limits& limits = {},
                                               MemoryBudget* budget = nullptr);

// Convenience for whole buffers (tests, fuzzers): feed everything with its size, then finish.
Report validate_gguf(std::string_view bytes, const Limits& limits = {});

}  // namespace tensorgate
