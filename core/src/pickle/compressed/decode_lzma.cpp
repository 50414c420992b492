// liblzma for joblib's 'xz' (one .xz stream, its check verified) and 'lzma' (lzma-alone: a
// 13-byte header and raw LZMA, ended by its end marker or the size the header names). The
// dictionary a stream asks for is allocated by liblzma: memlimit bounds it.
#include <lzma.h>

#include <algorithm>

#include "pickle/compressed/decoder.hpp"

namespace tensorgate::detail::pickle {
namespace {

class LzmaDecoder final : public Decoder {
 public:
  LzmaDecoder(bool xz, std::uint64_t memlimit) {
    const lzma_ret rc = xz ? lzma_stream_decoder(&s_, memlimit, 0) : lzma_alone_decoder(&s_, memlimit);
    open_ = rc == LZMA_OK;
  }
  ~LzmaDecoder() override { lzma_end(&s_); }
  bool open() const { return open_; }

  DecodeStep run(const unsigned char* in, std::size_t n, unsigned char* out, std::size_t cap) override {
    s_.next_in = in;
    s_.avail_in = n;
    s_.next_out = out;
    s_.avail_out = cap;
    const lzma_ret rc = lzma_code(&s_, LZMA_RUN);
    DecodeStep st{n - s_.avail_in, cap - s_.avail_out, DecodeStatus::more};
    switch (rc) {
      case LZMA_OK:
      case LZMA_BUF_ERROR: break;  // used what it could
      case LZMA_STREAM_END: st.status = DecodeStatus::ended; break;
      case LZMA_MEMLIMIT_ERROR:
        st.status = DecodeStatus::memory;
        message_ = "the stream's dictionary needs " + std::to_string(lzma_memusage(&s_)) + " bytes of memory";
        break;
      case LZMA_MEM_ERROR:
        st.status = DecodeStatus::memory;
        message_ = "liblzma could not allocate its dictionary";
        break;
      case LZMA_FORMAT_ERROR: st.status = DecodeStatus::corrupt; message_ = "no valid header"; break;
      case LZMA_OPTIONS_ERROR: st.status = DecodeStatus::corrupt; message_ = "options liblzma does not support"; break;
      case LZMA_DATA_ERROR: st.status = DecodeStatus::corrupt; message_ = "corrupt data"; break;
      default: st.status = DecodeStatus::corrupt; message_ = "liblzma refused the data"; break;
    }
    return st;
  }
  std::uint64_t memory() const override { return lzma_memusage(&s_); }

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool open_ = false;
};

}  // namespace

std::unique_ptr<Decoder> make_lzma_decoder(bool xz, std::uint64_t memlimit) {
  auto d = std::make_unique<LzmaDecoder>(xz, memlimit);
  if (!d->open()) return nullptr;
  return d;
}

}  // namespace tensorgate::detail::pickle
