#include "common/json_escape.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tensorgate::detail {

void append_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
  }
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t run = plain_run(s.data() + i, s.size() - i, false);
    out.append(s.data() + i, run);
    i += run;
    if (i == s.size()) break;
    append_escape(out, static_cast<unsigned char>(s[i++]));
  }
  out += '"';
}

namespace {

#if defined(__SSE2__)
// The sixteen flags of `v`: a byte that ends a plain run.
inline int special_bytes(__m128i v, bool ascii) {
  // Signed, bytes of 0x80 and above are negative, so "below 0x20" also flags them; unsigned,
  // min(v, 0x1f) == v flags only the control characters.
  const __m128i low = ascii ? _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))
                            : _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
  const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  return _mm_movemask_epi8(_mm_or_si128(low, _mm_or_si128(quote, backslash)));
}

// The last 1-15 bytes, copied to a 16-byte block so that one compare covers them (reading
// past the end instead would be faster still, but is an out-of-bounds read the sanitizers
// rightly report); the flags of the block's unused bytes are discarded.
inline std::size_t tail_run(const char* p, std::size_t n, bool ascii) {
  alignas(16) char block[16] = {};
  std::memcpy(block, p, n);
  const int mask = special_bytes(_mm_load_si128(reinterpret_cast<const __m128i*>(block)), ascii) | (0xffff << n);
  return static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
}
#endif

}  // namespace

std::size_t plain_run(const char* p, std::size_t n, bool ascii) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16)
    if (const int mask = special_bytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), ascii))
      return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  return i < n ? i + tail_run(p + i, n - i, ascii) : i;
#else
  for (; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c < 0x20 || c == '"' || c == '\\' || (ascii && c >= 0x80)) break;
  }
  return i;
#endif
}

void append_u64(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

}  // namespace tensorgate::detail
