#pragma once
// A Beast DynamicBuffer (v1) over the upload digest's fill block (upload_digest.hpp, "Read in
// place"): past the digest's first MiB the upload's body reads land in the block the worker
// will hash, not in the session's flat_buffer, and each body byte is copied once.
//
// The upload's exchange makes one before each read (Beast's read may loop over several) with
// its bounds:
//   - a Content-Length body: `max_new`, what is left of the body, so a read never takes bytes of
//     the next request (they would have to go back to the session's buffer) and may fill the
//     block's room, ~1 MiB in one read instead of Beast's 64 KiB (read_size_helper below);
//   - a chunked body: `max_unparsed`, read-buffer-bytes, the bound the session's own buffer puts
//     on a chunk header or trailer (over it, Beast's buffer_overflow).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "net.hpp"
#include "upload_digest.hpp"

namespace tensorgate::service {

class BlockReadBuffer {
 public:
  using const_buffers_type = net::const_buffer;
  using mutable_buffers_type = net::mutable_buffer;

  BlockReadBuffer(UploadDigest& digest, std::size_t max_unparsed, std::uint64_t max_new)
      : digest_(&digest), max_unparsed_(max_unparsed), max_new_(max_new) {}

  std::size_t size() const { return digest_->unparsed().size(); }
  std::size_t max_size() const { return size() + limit(); }
  std::size_t capacity() const { return max_size(); }
  const_buffers_type data() const { return {digest_->unparsed().data(), size()}; }
  mutable_buffers_type prepare(std::size_t n) {
    if (n > limit()) throw std::length_error("BlockReadBuffer: past the read's bounds");
    return {digest_->room().data(), n};
  }
  void commit(std::size_t n) {
    n = std::min(n, limit());
    digest_->commit(n);
    max_new_ -= n;
  }
  void consume(std::size_t n) { digest_->consume(std::min(n, size())); }

  // Beast's read loop asks this, not its 64 KiB default, how much one read may take.
  friend std::size_t read_size_helper(BlockReadBuffer& b, std::size_t) { return b.limit(); }

 private:
  // What the next read may take: the block's room, within both bounds.
  std::size_t limit() const {
    const std::size_t unparsed_room = max_unparsed_ - std::min(max_unparsed_, size());
    return static_cast<std::size_t>(std::min<std::uint64_t>({digest_->room().size(), unparsed_room, max_new_}));
  }

  UploadDigest* digest_;
  std::size_t max_unparsed_;
  std::uint64_t max_new_;
};

}  // namespace tensorgate::service
