#pragma once
// Reads a tensor pair in bounded chunks (the audit's source and GGUF, the diff's two sides): the GGUF side in order, one read per chunk; the source
// side as the runs of rows that chunk needs (one run when rows are not permuted, two per head
// for q and k), each byte once. Memory: two buffers of AuditLimits::chunk_bytes and a piece
// list of AuditLimits::max_pieces, allocated once for the whole audit.
#include <cstdint>
#include <functional>
#include <vector>

#include "tensorgate/audit.hpp"

namespace tensorgate::detail::pairing {

struct PairLayout {
  std::uint64_t source_offset = 0, gguf_offset = 0;  // file positions of the first bytes
  std::uint64_t rows = 1, cols = 0;   // the source's first dimension, and elements per row
  std::uint64_t heads = 0;            // q/k: permute rows with this many heads; 0: as is
  unsigned source_size = 0;           // bytes per source block (an element, unless source_block > 1)
  std::uint32_t source_block = 1;     // source elements per block (sub-byte or block types: the diff)
  std::uint32_t block = 1, block_bytes = 0;  // GGUF elements and bytes per block
};

// `n` elements, contiguous on both sides, starting at GGUF element `first`.
struct Piece {
  const std::byte* source;
  const std::byte* gguf;
  std::uint64_t n;
  std::uint64_t first;
};

class PairStream {
 public:
  explicit PairStream(const AuditLimits& limits);
  // Hands every piece of the tensor to `visit`, in GGUF order. false when a read failed.
  bool run(ByteSource& source, ByteSource& gguf, const PairLayout& layout,
           const std::function<void(const Piece&)>& visit);
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  struct Planned {
    std::uint64_t source_elem, gguf_elem, n;
    std::size_t buffer_pos = 0;  // where its source bytes land
  };
  std::uint64_t chunk_elements(const PairLayout& layout) const;
  void plan_batch(const PairLayout& layout, std::uint64_t& next, std::uint64_t budget);
  bool read_source(ByteSource& source, const PairLayout& layout);

  std::uint64_t chunk_bytes_;
  std::uint32_t max_pieces_;
  std::vector<std::byte> source_buf_, gguf_buf_;
  std::vector<Planned> batch_;
  std::vector<std::uint32_t> order_;
  std::uint64_t bytes_read_ = 0;
};

}  // namespace tensorgate::detail::pairing
