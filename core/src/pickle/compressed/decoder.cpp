#include "pickle/compressed/decoder.hpp"

namespace tensorgate::detail::pickle {

std::unique_ptr<Decoder> make_decoder(Compression c, std::uint64_t memlimit) {
  switch (c) {
    case Compression::zf:
    case Compression::zlib: return make_zlib_decoder(false);
    case Compression::gzip: return make_zlib_decoder(true);
    case Compression::bz2: return make_bz2_decoder();
    case Compression::lzma: return make_lzma_decoder(false, memlimit);
    case Compression::xz: return make_lzma_decoder(true, memlimit);
    case Compression::lz4: return make_lz4_decoder();
    case Compression::none: break;
  }
  return nullptr;
}

}  // namespace tensorgate::detail::pickle
