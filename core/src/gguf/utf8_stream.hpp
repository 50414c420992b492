#pragma once
// UTF-8 validation over a string that arrives in pieces (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF). A sequence may be split between two pieces; ASCII runs are skipped
// eight bytes at a time, which is what keeps a 128,000-token vocabulary cheap.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tensorgate::detail::gguf {

class Utf8Stream {
 public:
  void reset() {
    need_ = 0;
    lo_ = 0x80;
    hi_ = 0xbf;
    ok_ = true;
  }
  // True when everything fed since reset() is valid UTF-8 ending on a character boundary.
  bool complete_and_valid() const { return ok_ && need_ == 0; }

  void feed(const unsigned char* p, std::size_t n) {
    std::size_t i = 0;
    while (ok_ && i < n) {
      if (need_ > 0) {
        if (p[i] < lo_ || p[i] > hi_) ok_ = false;
        lo_ = 0x80;
        hi_ = 0xbf;
        --need_;
        ++i;
        continue;
      }
      i = skip_ascii(p, i, n);
      if (i < n) lead(p[i++]);
    }
  }
  void feed(std::string_view s) { feed(reinterpret_cast<const unsigned char*>(s.data()), s.size()); }

 private:
  static std::size_t skip_ascii(const unsigned char* p, std::size_t i, std::size_t n) {
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    while (i < n && p[i] < 0x80) ++i;
    return i;
  }
  // The first byte of a multi-byte sequence: how many continuation bytes follow, and the range
  // the first of them must fall in.
  void lead(unsigned char c) {
    if (c >= 0xc2 && c <= 0xdf) {
      need_ = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      need_ = 2;
      if (c == 0xe0) lo_ = 0xa0;  // overlong
      if (c == 0xed) hi_ = 0x9f;  // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need_ = 3;
      if (c == 0xf0) lo_ = 0x90;  // overlong
      if (c == 0xf4) hi_ = 0x8f;  // above U+10FFFF
    } else {
      ok_ = false;
    }
  }

  std::uint8_t need_ = 0;
  unsigned char lo_ = 0x80, hi_ = 0xbf;
  bool ok_ = true;
};

inline bool valid_utf8(std::string_view s) {
  Utf8Stream u;
  u.feed(s);
  return u.complete_and_valid();
}

}  // namespace tensorgate::detail::gguf
