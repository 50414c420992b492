// bzip2 (joblib's 'bz2': Python's BZ2File). Its output comes a block at a time: nothing until
// the first block's compressed bytes (up to ~900 KB of input) are all in.
#include <bzlib.h>

#include <algorithm>

#include "pickle/compressed/decoder.hpp"

namespace tensorgate::detail::pickle {
namespace {

class Bz2Decoder final : public Decoder {
 public:
  Bz2Decoder() { open_ = BZ2_bzDecompressInit(&s_, 0, 0) == BZ_OK; }
  ~Bz2Decoder() override {
    if (open_) BZ2_bzDecompressEnd(&s_);
  }
  bool open() const { return open_; }

  DecodeStep run(const unsigned char* in, std::size_t n, unsigned char* out, std::size_t cap) override {
    DecodeStep st;
    while (true) {
      const unsigned in_now = static_cast<unsigned>(std::min<std::size_t>(n - st.consumed, 1u << 30));
      const unsigned out_now = static_cast<unsigned>(std::min<std::size_t>(cap - st.produced, 1u << 30));
      s_.next_in = const_cast<char*>(reinterpret_cast<const char*>(in + st.consumed));
      s_.avail_in = in_now;
      s_.next_out = reinterpret_cast<char*>(out + st.produced);
      s_.avail_out = out_now;
      const int rc = BZ2_bzDecompress(&s_);
      st.consumed += in_now - s_.avail_in;
      st.produced += out_now - s_.avail_out;
      if (rc == BZ_STREAM_END) {
        st.status = DecodeStatus::ended;
        return st;
      }
      if (rc != BZ_OK) {
        st.status = DecodeStatus::corrupt;
        message_ = rc == BZ_DATA_ERROR_MAGIC ? "no bzip2 stream header" : rc == BZ_MEM_ERROR ? "bzip2 has no memory for the block"
                                                                                            : "invalid bzip2 data (a block's CRC or its coding)";
        return st;
      }
      const bool progress = in_now != s_.avail_in || out_now != s_.avail_out;
      if (st.produced == cap || st.consumed == n || !progress) return st;
    }
  }
  // Its block sort's tables at the largest block size (level 9: 100,000 x 9 x 4 bytes) and state.
  std::uint64_t memory() const override { return (100000ull * 9 * 4) + (64 << 10); }

 private:
  bz_stream s_{};
  bool open_ = false;
};

}  // namespace

std::unique_ptr<Decoder> make_bz2_decoder() {
  auto d = std::make_unique<Bz2Decoder>();
  if (!d->open()) return nullptr;
  return d;
}

}  // namespace tensorgate::detail::pickle
