#pragma once
// Builds a TensorTable while the header is parsed: resolves where a string lives (the header
// text when it had no escapes, the arena otherwise) and stores shapes compactly.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "tensorgate/safetensors/tensor_table.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate {

class TableBuilder {
 public:
  explicit TableBuilder(HeaderBuffer header);
  // Room for about `n` records in one block (on huge pages when large), so that a large table
  // is neither a deque's thousands of small blocks nor a vector's repeated copies.
  void reserve_records(std::size_t n);
  // Back to no records, strings, shapes or metadata (the records' room stays): what a parse
  // that gave up leaves for the next one.
  void clear();

  std::string_view header() const { return table_->header_.view(); }
  std::string_view str(StrRef r) const { return table_->str(r); }

  bool in_header(std::string_view s) const;
  StrRef header_ref(std::string_view s) const;  // s must lie in the header text
  StrRef arena_append(std::string_view s);      // a new arena string
  void arena_extend(StrRef& r, std::string_view s);  // r must be the arena's last string

  TensorTable::Record& add_record() {
    bytes_ += sizeof(TensorTable::Record);
    return table_->records_.emplace_back();
  }
  std::size_t record_count() const { return table_->records_.size(); }
  TensorTable::Record& record(std::size_t i) { return table_->records_[i]; }
  const TensorTable::Record& record(std::size_t i) const { return table_->records_[i]; }
  void set_shape(TensorTable::Record& r, std::span<const std::uint64_t> dims);

  void set_has_metadata() { table_->has_metadata_ = true; }
  // Charged by capacity: the list doubles, and a header of millions of keys grows it by tens of
  // megabytes at once.
  void add_metadata(StrRef key, StrRef value) {
    auto& list = table_->metadata_;
    if (list.size() == list.capacity()) {
      const std::size_t grown = list.empty() ? 8 : 2 * list.capacity();
      bytes_ += (grown - list.capacity()) * sizeof(list.front());
      list.reserve(grown);
    }
    list.emplace_back(key, value);
  }

  // Bytes the table holds beyond the header text (records, shapes, unescaped strings,
  // metadata), for the memory budget.
  std::size_t bytes() const { return bytes_; }

  TensorTable& table() { return *table_; }
  static std::vector<std::uint32_t>& data_order(TensorTable& t) { return t.data_order_; }
  std::shared_ptr<TensorTable> release() { return std::move(table_); }

 private:
  static constexpr std::size_t kDimChunk = 4096;
  std::shared_ptr<TensorTable> table_;
  std::size_t bytes_ = 0;
};

}  // namespace tensorgate
