// zlib's inflate for the zlib framing (joblib's default compressor, and the old ZF files' body)
// and the gzip framing (its header, CRC-32 and length checked by zlib).
#include <zlib.h>

#include <algorithm>

#include "pickle/compressed/decoder.hpp"

namespace tensorgate::detail::pickle {
namespace {

class ZlibDecoder final : public Decoder {
 public:
  explicit ZlibDecoder(bool gzip) { open_ = inflateInit2(&z_, gzip ? 16 + MAX_WBITS : MAX_WBITS) == Z_OK; }
  ~ZlibDecoder() override {
    if (open_) inflateEnd(&z_);
  }
  bool open() const { return open_; }

  DecodeStep run(const unsigned char* in, std::size_t n, unsigned char* out, std::size_t cap) override {
    DecodeStep st;
    // zlib counts in uInt: larger spans go in parts.
    while (true) {
      const uInt in_now = static_cast<uInt>(std::min<std::size_t>(n - st.consumed, 1u << 30));
      const uInt out_now = static_cast<uInt>(std::min<std::size_t>(cap - st.produced, 1u << 30));
      z_.next_in = const_cast<Bytef*>(in + st.consumed);
      z_.avail_in = in_now;
      z_.next_out = out + st.produced;
      z_.avail_out = out_now;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      st.consumed += in_now - z_.avail_in;
      st.produced += out_now - z_.avail_out;
      if (rc == Z_STREAM_END) {
        st.status = DecodeStatus::ended;
        return st;
      }
      if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR) {
        st.status = DecodeStatus::corrupt;
        message_ = rc == Z_NEED_DICT ? "the stream needs a preset dictionary, which no loader has"
                                     : z_.msg ? z_.msg : "invalid deflate data";
        return st;
      }
      // Z_OK or Z_BUF_ERROR (no progress possible): done when the input is used or the output full.
      if (st.produced == cap || st.consumed == n || rc == Z_BUF_ERROR) return st;
    }
  }
  std::uint64_t memory() const override { return 48 << 10; }  // the 32 KiB window and the state

 private:
  z_stream z_{};
  bool open_ = false;
};

}  // namespace

std::unique_ptr<Decoder> make_zlib_decoder(bool gzip) {
  auto d = std::make_unique<ZlibDecoder>(gzip);
  if (!d->open()) return nullptr;
  return d;
}

}  // namespace tensorgate::detail::pickle
