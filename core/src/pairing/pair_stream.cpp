#include "pairing/pair_stream.hpp"

#include <algorithm>

#include "pairing/permute.hpp"

namespace tensorgate::detail::pairing {
namespace {

constexpr std::uint64_t kMinChunk = 64 << 10;
// Every ggml block size divides 256, so chunks of a multiple of 256 elements cut whole blocks.
constexpr std::uint64_t kElementQuantum = 256;

}  // namespace

PairStream::PairStream(const AuditLimits& limits)
    : chunk_bytes_(std::max(limits.chunk_bytes, kMinChunk)), max_pieces_(std::max<std::uint32_t>(limits.max_pieces, 1)) {
  source_buf_.resize(static_cast<std::size_t>(chunk_bytes_));
  gguf_buf_.resize(static_cast<std::size_t>(chunk_bytes_));
  batch_.reserve(max_pieces_);
  order_.reserve(max_pieces_);
}

// Elements one batch may hold: both sides' bytes fit their buffers.
std::uint64_t PairStream::chunk_elements(const PairLayout& l) const {
  const std::uint64_t by_source = chunk_bytes_ / l.source_size * l.source_block;
  const std::uint64_t by_gguf = chunk_bytes_ / l.block_bytes * l.block;
  return std::min(by_source, by_gguf) / kElementQuantum * kElementQuantum;
}

// The next batch from GGUF element `next` on: whole rows while they fit, a long row in parts.
// Row starts are whole blocks (GG4: ne0 is a multiple of the block size), and so are parts.
void PairStream::plan_batch(const PairLayout& l, std::uint64_t& next, std::uint64_t budget) {
  batch_.clear();
  const std::uint64_t total = l.rows * l.cols;
  std::uint64_t used = 0;
  while (next < total && batch_.size() < max_pieces_) {
    const std::uint64_t row = next / l.cols, col = next % l.cols;
    std::uint64_t take = l.cols - col;
    if (used + take > budget) {
      if (used > 0) break;
      take = budget;
    }
    const std::uint64_t src_row = l.heads ? permuted_source_row(row, l.rows, l.heads) : row;
    batch_.push_back(Planned{src_row * l.cols + col, next, take});
    next += take;
    used += take;
  }
}

// The batch's source elements in source order, adjacent pieces merged into one read.
bool PairStream::read_source(ByteSource& source, const PairLayout& l) {
  order_.resize(batch_.size());
  for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  std::sort(order_.begin(), order_.end(),
            [&](std::uint32_t a, std::uint32_t b) { return batch_[a].source_elem < batch_[b].source_elem; });
  std::size_t pos = 0;
  for (std::size_t k = 0; k < order_.size();) {
    const std::uint64_t start = batch_[order_[k]].source_elem;
    std::uint64_t end = start;
    std::size_t m = k;
    for (; m < order_.size() && batch_[order_[m]].source_elem == end; ++m) {
      batch_[order_[m]].buffer_pos = pos + static_cast<std::size_t>((end - start) / l.source_block * l.source_size);
      end += batch_[order_[m]].n;
    }
    const std::size_t bytes = static_cast<std::size_t>((end - start) / l.source_block * l.source_size);
    if (!source.read(l.source_offset + start / l.source_block * l.source_size, std::span(source_buf_.data() + pos, bytes)))
      return false;
    bytes_read_ += bytes;
    pos += bytes;
    k = m;
  }
  return true;
}

bool PairStream::run(ByteSource& source, ByteSource& gguf, const PairLayout& l,
                     const std::function<void(const Piece&)>& visit) {
  const std::uint64_t total = l.rows * l.cols;
  const std::uint64_t budget = chunk_elements(l);
  std::uint64_t next = 0;
  while (next < total) {
    const std::uint64_t begin = next;
    plan_batch(l, next, budget);
    const std::uint64_t gguf_pos = begin / l.block * l.block_bytes;
    const std::size_t gguf_len = static_cast<std::size_t>((next - begin) / l.block * l.block_bytes);
    if (!gguf.read(l.gguf_offset + gguf_pos, std::span(gguf_buf_.data(), gguf_len))) return false;
    bytes_read_ += gguf_len;
    if (!read_source(source, l)) return false;
    for (const Planned& p : batch_) {
      const std::size_t at = static_cast<std::size_t>((p.gguf_elem - begin) / l.block * l.block_bytes);
      visit(Piece{source_buf_.data() + p.buffer_pos, gguf_buf_.data() + at, p.n, p.gguf_elem});
    }
  }
  return true;
}

}  // namespace tensorgate::detail::pairing
