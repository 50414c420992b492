#include "pickle/compressed/framing.hpp"

namespace tensorgate::detail::pickle {
namespace {

struct Magic {
  std::string_view bytes;
  Compression c;
};

// joblib's order: the compat prefix first, then its compressors as registered. A zlib stream
// is told by its first byte alone (0x78: a 32 KiB window), as joblib tells it; no pickle
// begins with 0x78, 0x1f, 0xfd, 0x04 or 'Z', and 5d 00 is EMPTY_LIST then no opcode.
constexpr Magic kMagics[] = {
    {"ZF", Compression::zf},
    {"\x78", Compression::zlib},
    {"\x1f\x8b", Compression::gzip},
    {"BZ", Compression::bz2},
    {std::string_view("\x5d\x00", 2), Compression::lzma},
    {"\xfd\x37\x7a\x58\x5a", Compression::xz},
    {"\x04\x22\x4d\x18", Compression::lz4},
};

}  // namespace

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::none: return "";
    case Compression::zf: return "zf";
    case Compression::zlib: return "zlib";
    case Compression::gzip: return "gzip";
    case Compression::bz2: return "bz2";
    case Compression::lzma: return "lzma";
    case Compression::xz: return "xz";
    case Compression::lz4: return "lz4";
  }
  return "";
}

std::optional<Compression> compression_of(std::string_view prefix, bool complete) {
  bool pending = false;
  for (const Magic& m : kMagics) {
    const std::size_t n = std::min(prefix.size(), m.bytes.size());
    if (prefix.substr(0, n) != m.bytes.substr(0, n)) continue;
    if (n == m.bytes.size()) return m.c;
    pending = true;  // a prefix of this magic so far
  }
  if (pending && !complete) return std::nullopt;
  return Compression::none;
}

}  // namespace tensorgate::detail::pickle
