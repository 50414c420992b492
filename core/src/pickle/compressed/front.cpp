#include "pickle/compressed/front.hpp"

#include <algorithm>

#include "common/printable.hpp"
#include "common/report_of.hpp"
#include "common/saturating.hpp"
#include "pickle/compressed/zf_header.hpp"

namespace tensorgate::detail::pickle {
namespace {

// Compressed input goes to the decoder in units of this many bytes from the stream's start,
// each in one call (the last, shorter one at the stream's end or the input's): the decoder then
// sees the same pieces however the input was chunked. Its output does depend on them: liblzma
// hands out what it decoded only between calls, so a break found inside a call loses that
// call's output, and where the break is found would follow the chunks. A unit waits for its
// last byte (at most this much of an early verdict is held back).
constexpr std::size_t kUnit = 4 << 10;
// The bomb bound is set per slice of this many compressed bytes (whole units).
constexpr std::uint64_t kSlice = 16 << 10;
static_assert(kSlice % kUnit == 0);
// The inflated bytes' buffer: large enough that the decoders run long between returns (the
// inflate is the cost here), small beside what a check holds anyway.
constexpr std::size_t kOut = 256 << 10;

}  // namespace

CompressedPickleValidator::CompressedPickleValidator(Compression c, const Limits& limits, MemoryBudget* budget, bool probing)
    : c_(c),
      limits_(limits.pickle),
      findings_(limits.max_findings),
      scanner_(limits.pickle, ScanSite{&findings_, 0, false, {}, nullptr, limits.policy}, budget),
      hold_(budget),
      decoder_(make_decoder(c, limits.pickle.max_decoder_memory)),
      out_(new unsigned char[kOut]),
      state_(c == Compression::zf ? St::header : St::stream),
      probe_(probing ? Probe::pending : Probe::confirmed) {
  scanner_.follow_joblib_arrays();  // a joblib.dump file: arrays' bytes follow their wrappers
  if (!hold_.add(kOut + kUnit))
    abort_with("pickle-memory-budget", "no memory left in the shared budget for the inflated bytes' buffer", AbortKind::memory_budget);
  else if (!decoder_)
    abort_with("pickle-decoder-memory", std::string(compression_name(c)) + ": the decompressor could not start (no memory for its state)",
               AbortKind::memory_budget);
  else charge_decoder();
}

Progress CompressedPickleValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  auto p = reinterpret_cast<const unsigned char*>(chunk.data());
  std::size_t n = chunk.size();
  bytes_seen_ += n;
  if (state_ == St::header) {
    const std::size_t take = std::min(n, kZfHeader + 1 - header_.size());
    header_.append(reinterpret_cast<const char*>(p), take);
    if (header_.size() <= kZfHeader) return progress();
    p += take;
    n -= take;
    take_header(p, n);
    return progress();
  }
  take_stream(p, n);
  return progress();
}

// Stream bytes: whole units straight from the chunk where they lie in it, the rest gathered.
void CompressedPickleValidator::take_stream(const unsigned char* p, std::size_t n) {
  while (n && state_ == St::stream) {
    if (unit_.empty() && n >= kUnit) {
      inflate_unit(p, kUnit);
      p += kUnit;
      n -= kUnit;
      continue;
    }
    const std::size_t take = std::min(n, kUnit - unit_.size());
    unit_.append(reinterpret_cast<const char*>(p), take);
    p += take;
    n -= take;
    if (unit_.size() == kUnit) flush_unit();
  }
  if (n && state_ == St::ended) trailing();
}

void CompressedPickleValidator::flush_unit() {
  inflate_unit(reinterpret_cast<const unsigned char*>(unit_.data()), unit_.size());  // keeps its room for the next
  unit_.clear();
}

// The ZF header and the byte after it (a space, or the zlib stream's first byte).
void CompressedPickleValidator::take_header(const unsigned char* p, std::size_t n) {
  const auto length = zf_length(std::string_view(header_).substr(2, kZfHeader - 2));
  if (!length) {
    broke("the ZF header's length field " + quoted(std::string_view(header_).substr(2, kZfHeader - 2), 40) +
          " is no hexadecimal number (joblib's int(length, 16) refuses it)");
    return;
  }
  declared_ = *length;
  if (declared_ > limits_.max_inflated_bytes)
    findings_.add(Rule::pk_decompression, "the ZF header says the pickle inflates to " + std::to_string(declared_) +
                                              " bytes, which joblib allocates at once: past " + std::to_string(limits_.max_inflated_bytes) +
                                              " (Limits::pickle.max_inflated_bytes)", 0);
  state_ = St::stream;
  // The byte after the field: a space joblib skips, or the stream's first (none at the end).
  const bool next = header_.size() > kZfHeader;
  const bool space = next && header_[kZfHeader] == ' ';
  base_ = kZfHeader + (space ? 1 : 0);
  if (next && !space) {
    const auto first = static_cast<unsigned char>(header_[kZfHeader]);
    take_stream(&first, 1);
  }
  take_stream(p, n);
}

// One unit of compressed bytes, inflated as far as it goes: drained through the buffer, its
// output bounded by its slice's bomb bound. Bytes after the stream's end in it are trailing.
void CompressedPickleValidator::inflate_unit(const unsigned char* p, std::size_t n) {
  const std::uint64_t slice_end = (handed_ / kSlice + 1) * kSlice;
  handed_ += n;
  // The slice may inflate to this much and no more: past it, a bomb.
  const std::uint64_t bound =
      std::min(limits_.max_inflated_bytes, std::max(limits_.bomb_floor_bytes, saturating_mul(limits_.bomb_ratio, slice_end)));
  std::size_t taken = 0;
  while (state_ == St::stream) {
    const DecodeStep st = decoder_->run(p + taken, n - taken, out_.get(), kOut);
    taken += st.consumed;
    compressed_ += st.consumed;
    if (!charge_decoder()) return;
    if (st.produced && !take_output(st.produced, bound, slice_end)) return;
    switch (st.status) {
      case DecodeStatus::ended:
        stream_ended();
        if (taken < n) trailing();
        return;
      case DecodeStatus::corrupt:
        broke("the " + std::string(compression_name(c_)) + " stream does not decompress: " + quoted(decoder_->message(), 120));
        return;
      case DecodeStatus::memory:
        if (probe_ == Probe::pending) {  // no pickle seen yet: not known to be this reader's
          probe_ = Probe::declined;
          state_ = St::stopped;
        } else {
          abort_with("pickle-decoder-memory", std::string(compression_name(c_)) + ": " + decoder_->message() + ", past " +
                         std::to_string(limits_.max_decoder_memory) + " (Limits::pickle.max_decoder_memory)", AbortKind::limit);
        }
        return;
      case DecodeStatus::more: break;
    }
    if (st.produced < kOut) {  // the unit's input is used and nothing more is pending
      // Every decoder uses all its input unless its output fills or the stream ends.
      if (taken < n) broke("the " + std::string(compression_name(c_)) + " decoder stopped taking input");
      return;
    }
  }
}

// Inflated bytes up to the slice's bound go to the scanner; more is a bomb.
bool CompressedPickleValidator::take_output(std::size_t k, std::uint64_t bound, std::uint64_t slice_end) {
  const std::size_t give = static_cast<std::size_t>(std::min<std::uint64_t>(k, bound > inflated_ ? bound - inflated_ : 0));
  if (!deliver(out_.get(), give)) return false;
  inflated_ += give;
  if (give == k) return true;
  if (probe_ == Probe::pending) {  // nothing delivered yet, so no pickle seen: not this reader's
    probe_ = Probe::declined;
    state_ = St::stopped;
    return false;
  }
  std::string why = bound == limits_.max_inflated_bytes
                        ? "past " + std::to_string(bound) + " bytes (Limits::pickle.max_inflated_bytes)"
                        : "past " + std::to_string(bound) + " bytes from its first " + std::to_string(slice_end) +
                              " compressed bytes: more than " + std::to_string(limits_.bomb_ratio) + ":1 and " +
                              std::to_string(limits_.bomb_floor_bytes) + " bytes (Limits::pickle.bomb_ratio, bomb_floor_bytes)";
  findings_.add(Rule::pk_decompression, "the " + std::string(compression_name(c_)) + " stream inflates " + why +
                                            ", a decompression bomb: it is not inflated further", base_);
  state_ = St::stopped;
  return false;
}

// The scanner reads what it looks at; a joblib array's bytes it only counts, so they are
// skipped here without a look.
bool CompressedPickleValidator::deliver(const unsigned char* d, std::size_t k) {
  if (k == 0) return true;
  if (probe_ == Probe::pending) {
    if (d[0] != op::PROTO) {
      probe_ = Probe::declined;
      state_ = St::stopped;
      return false;
    }
    probe_ = Probe::confirmed;
  }
  while (k) {
    const std::uint64_t array = scanner_.array_bytes_left();
    if (array == 0) {
      scanner_.feed(d, k);
      return true;
    }
    const std::size_t s = static_cast<std::size_t>(std::min<std::uint64_t>(array, k));
    scanner_.skip(s);
    d += s;
    k -= s;
  }
  return true;
}

void CompressedPickleValidator::stream_ended() {
  state_ = St::ended;
  if (probe_ == Probe::pending) {  // a whole stream of nothing
    probe_ = Probe::declined;
    state_ = St::stopped;
    return;
  }
  if (c_ == Compression::zf && inflated_ != declared_)
    findings_.add(Rule::pk_compressed_stream, "the ZF header says " + std::to_string(declared_) + " inflated bytes and the stream inflates to " +
                                                  std::to_string(inflated_) + ": joblib refuses the file", base_);
}

// The stream cannot be read on: a finding, or, while probing, no pickle after all.
void CompressedPickleValidator::broke(const std::string& what) {
  state_ = St::stopped;
  if (probe_ == Probe::pending) {
    probe_ = Probe::declined;
    return;
  }
  findings_.add(Rule::pk_compressed_stream, what, base_);
}

void CompressedPickleValidator::trailing() {
  if (trailing_found_) return;
  trailing_found_ = true;
  const std::uint64_t end = base_ + compressed_;
  findings_.add(Rule::pk_compressed_trailing, "the " + std::string(compression_name(c_)) + " stream ends at byte " + std::to_string(end) +
                                                  " and the file goes on: bytes after it are no part of what joblib wrote", end);
}

void CompressedPickleValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  state_ = St::stopped;
}

// The decoder's memory as it grows (liblzma allocates the dictionary the stream names).
bool CompressedPickleValidator::charge_decoder() {
  const std::uint64_t now = decoder_->memory();
  if (now <= decoder_charged_) return true;
  const std::uint64_t more = now - decoder_charged_;
  decoder_charged_ = now;
  if (hold_.add(more)) return true;
  abort_with("pickle-memory-budget", "no memory left in the shared budget for the " + std::string(compression_name(c_)) + " decoder",
             AbortKind::memory_budget);
  return false;
}

std::uint64_t CompressedPickleValidator::bytes_wanted() const {
  return (state_ == St::header || state_ == St::stream) && !finished_ ? 1 << 20 : 0;
}

// Past the stream's end or a stop, the rest is only counted: bytes after the end are trailing.
Progress CompressedPickleValidator::skip(std::uint64_t count) {
  if (finished_ || bytes_wanted() != 0) return progress();
  bytes_seen_ += count;
  if (state_ == St::ended && count) trailing();
  return progress();
}

Progress CompressedPickleValidator::progress() const {
  if (probe_ == Probe::declined) return Progress::invalid;
  if (probe_ == Probe::pending) return Progress::need_more;
  if (aborted_ || scanner_.aborted()) return Progress::aborted;
  if (findings_.has_errors()) return Progress::invalid;
  return Progress::need_more;
}

Report CompressedPickleValidator::report() const {
  Report r = report_of(Format::pickle, bytes_seen_, findings_, aborted_ ? aborted_ : scanner_.aborted());
  if (!scanner_.charge_copy()) {
    if (!r.aborted)
      r.aborted = Aborted{"pickle-memory-budget", "no memory left in the shared budget for the report's copy of the summary",
                          AbortKind::memory_budget};
    r.valid = false;
    return r;
  }
  PickleSummary s = scanner_.summary();
  s.compression = std::string(compression_name(c_));
  // The stream's bytes: through its end, or (broken, stopped, cut short) all the file had after the header.
  s.compressed_bytes = state_ == St::ended ? compressed_ : bytes_seen_ > base_ ? bytes_seen_ - base_ : 0;
  s.inflated_bytes = inflated_;
  r.summary = std::move(s);
  return r;
}

Report CompressedPickleValidator::snapshot() const { return report(); }

Report CompressedPickleValidator::finish() {
  if (finished_) return report();
  finished_ = true;
  if (state_ == St::header) {
    if (header_.size() == kZfHeader) {
      take_header(nullptr, 0);  // the header, then a stream of nothing
    } else {
      broke("the file ends inside its ZF header (" + std::to_string(header_.size()) + " of " + std::to_string(kZfHeader) + " bytes)");
    }
  }
  if (state_ == St::stream && !unit_.empty()) flush_unit();  // the last, shorter unit
  if (state_ == St::stream)
    broke("the " + std::string(compression_name(c_)) + " stream is cut short: the file ends before the stream does (" +
          std::to_string(bytes_seen_ > base_ ? bytes_seen_ - base_ : 0) + " compressed bytes inflated to " + std::to_string(inflated_) + ")");
  if (probe_ == Probe::pending) probe_ = Probe::declined;
  if (state_ == St::ended) scanner_.finish();
  return report();
}

}  // namespace tensorgate::detail::pickle
