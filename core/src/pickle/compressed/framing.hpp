#pragma once
// The framings joblib.load tells a compressed file by (joblib/numpy_pickle_utils.py,
// _detect_compressor): the first bytes, compared as joblib compares them, in its order.
#include <cstdint>
#include <optional>
#include <string_view>

namespace tensorgate::detail::pickle {

enum class Compression : std::uint8_t {
  none,
  zf,    // b"ZF", the inflated length in hex padded to 19 characters, then zlib (joblib < 0.9.3)
  zlib,  // 0x78: a zlib stream (compress=3, ('zlib', n))
  gzip,  // 1f 8b
  bz2,   // "BZ"
  lzma,  // 5d 00: lzma-alone (FORMAT_ALONE)
  xz,    // fd 37 7a 58 5a
  lz4,   // 04 22 4d 18: an LZ4 frame
};

// What the summary says: "zlib", "gzip", "bz2", "lzma", "xz", "lz4", "zf"; empty for none.
std::string_view compression_name(Compression c);

// The longest prefix joblib compares.
inline constexpr std::size_t kLongestMagic = 5;

// The framing `prefix` begins with as joblib.load reads it: none for a plain pickle; nullopt
// while more bytes could still make a magic (`complete`: no more bytes come).
std::optional<Compression> compression_of(std::string_view prefix, bool complete);

}  // namespace tensorgate::detail::pickle
