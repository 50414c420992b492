// The plain-header fast path (st2_plain_header.hpp): one forward pass over the bytes, no
// recursion, no events; anything outside the plain shape gives up at once.
#include "safetensors/st2_plain_header.hpp"

#include <cstring>

#include "safetensors/st4_tensor_size.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tensorgate::detail {
namespace {

constexpr std::uint32_t kKeyPosMask = (1u << 27) - 1;  // TensorTable::Record::key_pos's width
constexpr int kMaxPlainDigits = 18;                   // below 2^63: an int64 to Boost.JSON too

// Printable ASCII other than the quote and the backslash: a string byte that needs no escape
// handling, no UTF-8 check and no control-character warning.
bool plain_byte(char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

class PlainScanner {
 public:
  PlainScanner(std::string_view text, TableBuilder& builder, DuplicateNames& names, TableAllowance& allowance)
      : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()),
        builder_(builder), names_(names), allowance_(allowance) {}

  PlainScan run();

 private:
  bool byte(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool literal(std::string_view s) {
    if (static_cast<std::size_t>(end_ - p_) < s.size() || std::memcmp(p_, s.data(), s.size()) != 0) return false;
    p_ += s.size();
    return true;
  }
  bool string(std::string_view& out);
  bool integer(std::uint64_t& v);
  bool entry(std::size_t key_pos, std::string_view name);
  bool dtype(TensorTable::Record& rec);
  bool shape(TensorTable::Record& rec);
  bool offsets(TensorTable::Record& rec);
  bool metadata();
  bool charge();

  const char* const begin_;
  const char* p_;
  const char* const end_;
  TableBuilder& builder_;
  DuplicateNames& names_;
  TableAllowance& allowance_;
  ArchitectureGuesser guesser_;
  std::size_t until_poll_ = kPlainEntriesPerPoll;
  bool stopped_ = false;  // the allowance said no: the scan ends without a verdict
};

PlainScan PlainScanner::run() {
  PlainScan out;
  if (!byte('{')) return out;
  bool metadata_seen = false;
  if (!byte('}')) {
    for (;;) {
      const auto key_pos = static_cast<std::size_t>(p_ - begin_);
      std::string_view key;
      if (!byte('"') || !string(key) || !literal(":{")) return out;
      if (key == "__metadata__") {
        if (metadata_seen || !metadata()) return out;
        metadata_seen = true;
      } else if (!entry(key_pos, key)) {
        if (stopped_) out.outcome = PlainScan::Outcome::stopped;
        return out;
      }
      if (byte(',')) continue;
      if (byte('}')) break;
      return out;
    }
  }
  out.outcome = PlainScan::Outcome::accepted;
  out.object_end = static_cast<std::size_t>(p_ - begin_);
  out.architecture = guesser_.result();
  return out;
}

// After the opening quote: the string's bytes up to its closing quote, if all are plain. Sixteen
// bytes a step where SSE2 is there (every x86-64): names are tens of bytes long.
bool PlainScanner::string(std::string_view& out) {
  const char* const start = p_;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
  while (end_ - p_ >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
    // A signed compare: bytes of 0x80 and up are negative, below the space with the controls.
    const __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                      _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
    if (const int mask = _mm_movemask_epi8(stop)) {
      p_ += __builtin_ctz(static_cast<unsigned>(mask));
      break;
    }
    p_ += 16;
  }
#endif
  while (p_ != end_ && plain_byte(*p_)) ++p_;
  if (p_ == end_ || *p_ != '"') return false;
  out = std::string_view(start, static_cast<std::size_t>(p_ - start));
  ++p_;
  return true;
}

// A non-negative JSON integer of at most kMaxPlainDigits digits ("0", or no leading zero).
// What follows it is the caller's to check: a '.', 'e' or '-' there is not plain.
bool PlainScanner::integer(std::uint64_t& v) {
  const char* const start = p_;
  v = 0;
  while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
    v = v * 10 + static_cast<std::uint64_t>(*p_ - '0');
    ++p_;
  }
  const auto digits = p_ - start;
  return digits > 0 && digits <= kMaxPlainDigits && (digits == 1 || *start != '0');
}

// After "name":{ — the three fields, then the size rule.
bool PlainScanner::entry(std::size_t key_pos, std::string_view name) {
  auto& rec = builder_.add_record();
  rec.name = builder_.header_ref(name);
  rec.key_pos = static_cast<std::uint32_t>(key_pos) & kKeyPosMask;
  names_.add(static_cast<std::uint32_t>(builder_.record_count() - 1), name);
  guesser_.add(name);
  unsigned seen = 0;
  for (;;) {
    if (!byte('"')) return false;
    unsigned bit = 0;
    if (literal("dtype\":\"")) bit = dtype(rec) ? 1 : 0;
    else if (literal("shape\":[")) bit = shape(rec) ? 2 : 0;
    else if (literal("data_offsets\":[")) bit = offsets(rec) ? 4 : 0;
    if (bit == 0 || (seen & bit)) return false;
    seen |= bit;
    if (byte(',')) continue;
    if (byte('}')) break;
    return false;
  }
  if (seen != 7) return false;
  const TensorSize size = tensor_size(rec.shape(), static_cast<Dtype>(rec.dtype), rec.end - rec.begin);
  if (size.verdict != TensorSize::Verdict::fits || size.fold_overflowed || size.bits_overflowed) return false;
  rec.flags |= TensorTable::kHasOffsets | TensorTable::kValid;
  return charge();
}

bool PlainScanner::dtype(TensorTable::Record& rec) {
  std::string_view name;
  if (!string(name)) return false;
  const auto d = dtype_from_name(name);
  if (!d) return false;
  rec.dtype = static_cast<std::uint8_t>(*d) & 31u;
  return true;
}

bool PlainScanner::shape(TensorTable::Record& rec) {
  std::uint64_t dims[kMaxPlainDims];
  std::size_t n = 0;
  if (!byte(']')) {
    do {
      if (n == kMaxPlainDims || !integer(dims[n])) return false;
      ++n;
    } while (byte(','));
    if (!byte(']')) return false;
  }
  builder_.set_shape(rec, std::span<const std::uint64_t>(dims, n));
  return true;
}

bool PlainScanner::offsets(TensorTable::Record& rec) {
  std::uint64_t begin = 0, end = 0;
  if (!integer(begin) || !byte(',') || !integer(end) || !byte(']') || begin > end) return false;
  rec.begin = begin;
  rec.end = end;
  return true;
}

// After "__metadata__":{ — string keys to string values, none twice. An empty map is a warning
// the general parse words.
bool PlainScanner::metadata() {
  builder_.set_has_metadata();
  const TensorTable& table = builder_.table();
  for (std::size_t count = 0;; ++count) {
    std::string_view key, value;
    if (count == kMaxPlainMetadata || !byte('"') || !string(key) || !literal(":\"") || !string(value))
      return false;
    for (std::size_t i = 0; i < count; ++i)
      if (table.metadata(i).first == key) return false;
    builder_.add_metadata(builder_.header_ref(key), builder_.header_ref(value));
    if (byte(',')) continue;
    return byte('}');
  }
}

// What the table and the name list hold now, charged as the general parse charges it; and
// the deadline, every kPlainEntriesPerPoll entries.
bool PlainScanner::charge() {
  const std::size_t bytes = builder_.bytes() + builder_.record_count() * DuplicateNames::kBytesPerName;
  if (bytes > allowance_.covered() && !allowance_.cover(bytes)) stopped_ = true;
  if (--until_poll_ == 0) {
    until_poll_ = kPlainEntriesPerPoll;
    if (!allowance_.time_left()) stopped_ = true;
  }
  return !stopped_;
}

}  // namespace

PlainScan scan_plain_header(std::string_view text, TableBuilder& builder, DuplicateNames& names,
                            TableAllowance& allowance) {
  return PlainScanner(text, builder, names, allowance).run();
}

}  // namespace tensorgate::detail
