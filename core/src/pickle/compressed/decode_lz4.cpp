// LZ4's frame decoder (joblib's 'lz4': python-lz4's LZ4FrameFile, one frame). It gathers each
// block whole before decoding it, so its output comes a block at a time (64 KiB to 4 MiB).
#include <lz4frame.h>

#include "pickle/compressed/decoder.hpp"

namespace tensorgate::detail::pickle {
namespace {

class Lz4Decoder final : public Decoder {
 public:
  Lz4Decoder() { open_ = !LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION)); }
  ~Lz4Decoder() override {
    if (open_) LZ4F_freeDecompressionContext(ctx_);
  }
  bool open() const { return open_; }

  DecodeStep run(const unsigned char* in, std::size_t n, unsigned char* out, std::size_t cap) override {
    DecodeStep st;
    while (true) {
      std::size_t in_now = n - st.consumed, out_now = cap - st.produced;
      const std::size_t hint = LZ4F_decompress(ctx_, out + st.produced, &out_now, in + st.consumed, &in_now, nullptr);
      st.consumed += in_now;
      st.produced += out_now;
      if (LZ4F_isError(hint)) {
        st.status = DecodeStatus::corrupt;
        message_ = LZ4F_getErrorName(hint);
        return st;
      }
      if (hint == 0) {  // the frame is whole (its checksums passed)
        st.status = DecodeStatus::ended;
        return st;
      }
      if (st.produced == cap || st.consumed == n || (in_now == 0 && out_now == 0)) return st;
    }
  }
  // Its input and output buffers at the largest block size (4 MiB each) and a 64 KiB window.
  std::uint64_t memory() const override { return (8ull << 20) + (128 << 10); }

 private:
  LZ4F_dctx* ctx_ = nullptr;
  bool open_ = false;
};

}  // namespace

std::unique_ptr<Decoder> make_lz4_decoder() {
  auto d = std::make_unique<Lz4Decoder>();
  if (!d->open()) return nullptr;
  return d;
}


}  // namespace tensorgate::detail::pickle
