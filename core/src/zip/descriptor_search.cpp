#include "zip/descriptor_search.hpp"

#include <algorithm>
#include <cstring>

#include "common/little_endian.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tensorgate::detail::zip {

// 16 positions a step: 'P' at i and 'K' at i + 1, then the other two bytes for each candidate.
// On tensor data a "PK" pair is rare (1 in 65,536 positions), so this runs at memory speed.
std::size_t find_descriptor_signature(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i P = _mm_set1_epi8('P'), K = _mm_set1_epi8('K');
  for (; i + 17 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1));
    unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, P), _mm_cmpeq_epi8(b, K))));
    while (m) {
      const std::size_t j = i + static_cast<std::size_t>(__builtin_ctz(m));
      if (j + 4 <= n && p[j + 2] == 7 && p[j + 3] == 8) return j;
      m &= m - 1;
    }
  }
#endif
  for (; i + 4 <= n; ++i)
    if (p[i] == 'P' && p[i + 1] == 'K' && p[i + 2] == 7 && p[i + 3] == 8) return i;
  return n;
}

void DescriptorSearch::reset(bool zip64, std::optional<std::uint64_t> hint) {
  got_ = 0;
  carry_n_ = 0;
  width_ = zip64 ? 24 : 16;
  hint_ = hint;
  search_from_ = 0;
  hint_missed_ = false;
  found_at_ = 0;
  descriptor_ = {};
}

// Is there a descriptor for an entry of q bytes at position q? `at` holds width_ bytes.
bool DescriptorSearch::check(std::uint64_t q, const unsigned char* at) {
  if (q < search_from_) return false;
  const bool hinted = hint_ && !hint_missed_;
  if (hinted && q != *hint_) return false;
  const unsigned w = width_ == 24 ? 8 : 4;
  const bool match = at[0] == 'P' && at[1] == 'K' && at[2] == 7 && at[3] == 8 && le_bytes(at + 8, w) == q && le_bytes(at + 8 + w, w) == q;
  if (!match) {
    if (hinted) {  // not where data.pkl says: search every position from here on
      hint_missed_ = true;
      search_from_ = q + 1;
    }
    return false;
  }
  descriptor_ = {static_cast<std::uint32_t>(le_bytes(at + 4, 4)), q, q};
  found_at_ = q;
  return true;
}

// The positions held back from the last chunk, looked at with this chunk's first bytes: a step
// when that settles the call (the descriptor starts among them, or this chunk is too short to
// resolve them all and is held back too); otherwise none, the held bytes handed on as data.
std::optional<DescriptorSearch::Step> DescriptorSearch::resolve_carry(const unsigned char* p, std::size_t n,
                                                                      const Sink& sink) {
  std::array<unsigned char, 48> joint{};
  const std::size_t extra = std::min(n, width_);
  std::memcpy(joint.data(), carry_.data(), carry_n_);
  std::memcpy(joint.data() + carry_n_, p, extra);
  const std::size_t jn = carry_n_ + extra;
  std::size_t r = 0;
  for (; r < carry_n_ && r + width_ <= jn; ++r) {
    if (check(got_ - carry_n_ + r, joint.data() + r)) {
      if (r) sink(carry_.data(), r);
      return Step{r + width_ - carry_n_, true};
    }
  }
  if (r < carry_n_) {  // n < width_ - 1 here, so what is held stays under width_ bytes
    if (r) sink(carry_.data(), r);
    std::memmove(carry_.data(), carry_.data() + r, carry_n_ - r);
    carry_n_ -= r;
    std::memcpy(carry_.data() + carry_n_, p, n);
    carry_n_ += n;
    got_ += n;
    return Step{n, false};
  }
  sink(carry_.data(), carry_n_);
  carry_n_ = 0;
  return std::nullopt;
}

// A chunk of at least width_ bytes, nothing held back before it: the hinted position, or every
// position from search_from_; the last width_ - 1 bytes are held back for the next chunk.
DescriptorSearch::Step DescriptorSearch::scan(const unsigned char* p, std::size_t n, const Sink& sink) {
  const std::size_t last = n - width_;  // the last position whose descriptor bytes are all here
  std::size_t j = 0;
  if (hint_ && !hint_missed_ && *hint_ < got_) {  // cannot happen: the joint step looked at it
    hint_missed_ = true;
    search_from_ = got_;
  }
  if (hint_ && !hint_missed_) {
    if (*hint_ > got_ + last) {
      j = last + 1;  // data up to the hint: nothing to look at in this chunk
    } else {
      j = static_cast<std::size_t>(*hint_ - got_);
      if (check(*hint_, p + j)) {
        sink(p, j);
        return Step{j + width_, true};
      }
      ++j;
    }
  }
  if (!hint_ || hint_missed_) {
    if (search_from_ > got_) j = std::max<std::size_t>(j, static_cast<std::size_t>(std::min<std::uint64_t>(search_from_ - got_, last + 1)));
    while (j <= last) {
      const std::size_t at = j + find_descriptor_signature(p + j, last - j + 4);
      if (at > last) break;
      if (check(got_ + at, p + at)) {
        sink(p, at);
        return Step{at + width_, true};
      }
      j = at + 1;
    }
  }
  sink(p, last + 1);
  carry_n_ = width_ - 1;
  std::memcpy(carry_.data(), p + last + 1, carry_n_);
  got_ += n;
  return Step{n, false};
}

DescriptorSearch::Step DescriptorSearch::feed(const unsigned char* p, std::size_t n, const Sink& sink) {
  if (carry_n_) {
    if (const auto step = resolve_carry(p, n, sink)) return *step;
  }
  if (n < width_) {  // too short to hold a descriptor's start: all held back
    std::memcpy(carry_.data(), p, n);
    carry_n_ = n;
    got_ += n;
    return Step{n, false};
  }
  return scan(p, n, sink);
}

}  // namespace tensorgate::detail::zip
