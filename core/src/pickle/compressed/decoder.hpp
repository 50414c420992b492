#pragma once
// One decompressor behind one interface: zlib's inflate (zlib and gzip framing), bzip2,
// liblzma (xz and lzma-alone) and LZ4's frame decoder. Compressed bytes in, inflated bytes out
// into the caller's buffer; the decoder's own memory is what its library holds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "pickle/compressed/framing.hpp"

namespace tensorgate::detail::pickle {

enum class DecodeStatus : std::uint8_t {
  more,     // all input used or the output full: call again
  ended,    // the stream's end (its checks passed): what follows is not this stream's
  corrupt,  // the library refused the data (message())
  memory,   // the stream needs more memory than the limit allows (xz's memlimit)
};

struct DecodeStep {
  std::size_t consumed = 0;  // compressed bytes used
  std::size_t produced = 0;  // inflated bytes written
  DecodeStatus status = DecodeStatus::more;
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Decodes `n` bytes into `out` (room for `cap`): returns when the input is used and nothing
  // more can come of it, the output is full (call again, with the rest of the input or none,
  // to drain it), the stream ended, or it broke.
  virtual DecodeStep run(const unsigned char* in, std::size_t n, unsigned char* out, std::size_t cap) = 0;
  // The bytes the library holds for this stream now (the most it will hold for zlib, bzip2
  // and LZ4, whose sizes are fixed by the framing; what liblzma reports for xz and lzma).
  virtual std::uint64_t memory() const = 0;
  const std::string& message() const { return message_; }

 protected:
  std::string message_;
};

// Null when the library cannot start (no memory for its state).
std::unique_ptr<Decoder> make_zlib_decoder(bool gzip);
std::unique_ptr<Decoder> make_bz2_decoder();
std::unique_ptr<Decoder> make_lzma_decoder(bool xz, std::uint64_t memlimit);
std::unique_ptr<Decoder> make_lz4_decoder();
std::unique_ptr<Decoder> make_decoder(Compression c, std::uint64_t memlimit);

}  // namespace tensorgate::detail::pickle
