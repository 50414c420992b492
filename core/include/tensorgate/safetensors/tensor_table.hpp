#pragma once
// The parsed content of a safetensors header, stored compactly: names point into the header
// bytes (or into an arena when they had escapes), records are 48 bytes, shapes of up to two
// dimensions are stored inline. A 1,000,000-tensor header of ~90 MB costs ~50 MB on top of
// itself, which is what keeps validation under twice the header's size.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tensorgate/safetensors/dtype.hpp"
#include "tensorgate/safetensors/header_buffer.hpp"

namespace tensorgate {

// A string held by the table: `len` bytes at `off` in the header text or in the arena.
struct StrRef {
  std::uint32_t off = 0;
  std::uint32_t len : 31 = 0;
  std::uint32_t in_arena : 1 = 0;
};

struct TensorView {
  std::string_view name;
  Dtype dtype;
  std::span<const std::uint64_t> shape;
  std::uint64_t begin;
  std::uint64_t end;
  std::uint64_t header_pos;  // position of the entry's key inside the header text
};

class TensorTable {
 public:
  struct Record {
    StrRef name;
    std::uint64_t begin = 0, end = 0;
    union {
      std::uint64_t inline_dims[2];
      const std::uint64_t* heap_dims;
    };
    std::uint32_t key_pos : 27 = 0;
    std::uint32_t flags : 5 = 0;
    std::uint32_t ndims : 27 = 0;
    std::uint32_t dtype : 5 = 0;

    Record() : inline_dims{0, 0} {}
    std::span<const std::uint64_t> shape() const {
      return ndims <= 2 ? std::span<const std::uint64_t>(inline_dims, ndims)
                        : std::span<const std::uint64_t>(heap_dims, ndims);
    }
  };
  enum RecordFlag : std::uint32_t {
    kValid = 1,       // the entry passed every ST4 check
    kHasOffsets = 2,  // data_offsets were well-formed: the entry takes part in the ST5 tiling check
    kDuplicate = 4,   // a second entry of a name already seen
  };

  std::size_t size() const { return records_.size(); }
  TensorView operator[](std::size_t i) const;
  const Record& record(std::size_t i) const { return records_[i]; }
  std::span<const Record> records() const { return records_; }  // header order
  std::string_view str(StrRef r) const {
    return (r.in_arena ? std::string_view(arena_) : header_.view()).substr(r.off, r.len);
  }
  std::string_view header_text() const { return header_.view(); }
  std::size_t metadata_size() const { return metadata_.size(); }
  std::pair<std::string_view, std::string_view> metadata(std::size_t i) const {
    return {str(metadata_[i].first), str(metadata_[i].second)};
  }
  bool has_metadata() const { return has_metadata_; }
  // Records with well-formed offsets, sorted by (begin, end, canonical order).
  std::span<const std::uint32_t> data_order() const { return data_order_; }

 private:
  friend class TableBuilder;
  HeaderBuffer header_;
  std::string arena_;
  std::vector<Record> records_;  // reserved from the header's size: one block, no copies
  std::vector<std::unique_ptr<std::uint64_t[]>> dim_chunks_;
  std::size_t dim_chunk_used_ = 0;
  std::vector<std::pair<StrRef, StrRef>> metadata_;
  bool has_metadata_ = false;
  std::vector<std::uint32_t> data_order_;
};

}  // namespace tensorgate
