// ZipValidator: the byte loop, the gathering of records (a fixed part, then the names, extra
// fields and comments its lengths announce: at most 3 x 65,535 bytes, the format's own bound),
// findings and memory accounting.
#include "zip/validator.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "common/report_of.hpp"
#include "zip/records.hpp"

namespace tensorgate {
namespace detail::zip {

ZipValidator::ZipValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits),
      budget_(budget),
      findings_(limits.max_findings),
      content_(limits_, findings_, budget),
      deferred_(limits.torchscript.max_deferred_globals) {
  content_.defer_torchscript_globals(&deferred_);
}

ZipValidator::~ZipValidator() {
  if (budget_ && budget_held_) budget_->release(budget_held_);
}

Progress ZipValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  const auto* p = reinterpret_cast<const unsigned char*>(chunk.data());
  std::size_t n = chunk.size();
  while (n > 0) {
    if (state_ == St::stopped) {
      pos_ += n;
      break;
    }
    if (state_ == St::after_end) {
      if (trailing_ == 0)
        add(Rule::zp_end_record, "bytes follow the end-of-central-directory record and its comment (from byte " +
                                     std::to_string(pos_) + "): zip readers search the end for the record", pos_);
      trailing_ += n;
      pos_ += n;
      break;
    }
    const std::size_t used = step(p, n);
    p += used;
    n -= used;
  }
  return progress();
}

std::size_t ZipValidator::step(const unsigned char* p, std::size_t n) {
  switch (state_) {
    case St::signature: return take_signature(p, n);
    case St::record: return take_record(p, n);
    case St::data: return take_data(p, n);
    case St::descriptor: return take_descriptor(p, n);
    default: return n;
  }
}

std::uint64_t ZipValidator::bytes_wanted() const {
  if (finished_ || state_ == St::stopped || state_ == St::after_end) return 0;
  return 1 << 20;
}

Progress ZipValidator::skip(std::uint64_t count) {
  assert(bytes_wanted() == 0 && "skip() only past the bytes the validator looks at");
  if (bytes_wanted() != 0 || finished_) return progress();
  if (state_ == St::after_end) {
    if (trailing_ == 0 && count)
      add(Rule::zp_end_record, "bytes follow the end-of-central-directory record and its comment (from byte " +
                                   std::to_string(pos_) + "): zip readers search the end for the record", pos_);
    trailing_ += count;
  }
  pos_ += count;
  return progress();
}

std::size_t ZipValidator::take_signature(const unsigned char* p, std::size_t n) {
  if (sig_have_ == 0) rec_pos_ = pos_;
  const std::size_t take = std::min<std::size_t>(n, 4 - sig_have_);
  std::memcpy(sig_ + sig_have_, p, take);
  sig_have_ += static_cast<unsigned>(take);
  pos_ += take;
  if (sig_have_ == 4) {
    sig_have_ = 0;
    on_signature(le32(sig_));
  }
  return take;
}

void ZipValidator::on_signature(std::uint32_t sig) {
  buf_.clear();
  fixed_done_ = false;
  state_ = St::record;
  switch (sig) {
    case kLocal:
      if (in_central_)
        return malformed(Rule::zp_record, "a local header at byte " + std::to_string(rec_pos_) +
                                              " after the central directory began", rec_pos_);
      rec_ = Rec::local;
      need_ = 26;
      return;
    case kCentral:
      if (!in_central_) {
        in_central_ = true;
        central_start_ = rec_pos_;
      }
      if (zip64_end_at_ || ended_) return malformed(Rule::zp_record, "a central-directory record after the end records", rec_pos_);
      rec_ = Rec::central;
      need_ = 42;
      return;
    case kZip64End:
      rec_ = Rec::zip64_end;
      need_ = 8;
      return;
    case kZip64Locator:
      rec_ = Rec::zip64_locator;
      need_ = 16;
      return;
    case kEnd:
      rec_ = Rec::end;
      need_ = 18;
      return;
    case kDigitalSignature:
      rec_ = Rec::signature_record;
      need_ = 2;
      return;
    case kArchiveExtra:
      return malformed(Rule::zp_encrypted, "an archive extra data record at byte " + std::to_string(rec_pos_) +
                                               ": the central directory is encrypted", rec_pos_);
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string hex;
      for (const unsigned char b : sig_) {
        hex += kHex[b >> 4];
        hex += kHex[b & 15];
      }
      return malformed(Rule::zp_record, "no zip record begins at byte " + std::to_string(rec_pos_) + " (0x" + hex + ")",
                       rec_pos_);
    }
  }
}

std::size_t ZipValidator::take_record(const unsigned char* p, std::size_t n) {
  const std::size_t take = std::min(n, need_ - buf_.size());
  buf_.append(reinterpret_cast<const char*>(p), take);
  pos_ += take;
  if (buf_.size() == need_) {
    if (!fixed_done_) on_record_fixed(); else on_record();
  }
  return take;
}

void ZipValidator::on_record_fixed() {
  fixed_done_ = true;
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data());
  switch (rec_) {
    case Rec::local: need_ = 26 + le16(b + 22) + le16(b + 24); break;
    case Rec::central: need_ = 42 + le16(b + 24) + le16(b + 26) + static_cast<std::size_t>(le16(b + 28)); break;
    case Rec::zip64_end: {
      const std::uint64_t size = le64(b);
      if (size < 44 || size > (1u << 16))
        return malformed(Rule::zp_record, "the zip64 end record announces " + std::to_string(size) +
                                              " bytes (44 to 65,536 are possible)", rec_pos_);
      need_ = 8 + static_cast<std::size_t>(size);
      break;
    }
    case Rec::end: need_ = 18 + le16(b + 16); break;
    case Rec::signature_record: need_ = 2 + le16(b); break;
    case Rec::zip64_locator: break;
  }
  if (buf_.size() == need_) on_record();
}

void ZipValidator::on_record() {
  state_ = St::signature;
  switch (rec_) {
    case Rec::local: return on_local();
    case Rec::central: return on_central();
    case Rec::zip64_end: return on_zip64_end();
    case Rec::zip64_locator: return on_zip64_locator();
    case Rec::end: return on_end();
    case Rec::signature_record: return;
  }
}

void ZipValidator::add(Rule rule, std::string message, std::uint64_t at) { findings_.add(rule, std::move(message), at); }

void ZipValidator::malformed(Rule rule, std::string message, std::uint64_t at) {
  add(rule, std::move(message), at);
  state_ = St::stopped;
}

void ZipValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  state_ = St::stopped;
}

// Entry records, names and kept pickle summaries, acquired from the shared budget a mebibyte at
// a time.
bool ZipValidator::charge(std::size_t bytes) {
  if (hold(bytes)) return true;
  abort_with("zip-memory-budget", "no memory left in the shared budget for " + std::to_string(memory_) +
                                      " bytes of zip entry records and pickle summaries",
             AbortKind::memory_budget);
  return false;
}

// Const: a report's copy of the summaries is charged too (the copy lives as long as this walker,
// until the answer is written), and all of it is released when the walker goes.
bool ZipValidator::hold(std::size_t bytes) const {
  memory_ += bytes;
  if (!budget_ || memory_ <= budget_held_) return true;
  const std::size_t step = std::max<std::size_t>(memory_ - budget_held_, 1 << 20);
  if (!budget_->try_acquire(step)) return false;
  budget_held_ += step;
  return true;
}

Progress ZipValidator::progress() const {
  if (aborted_ || content_.aborted()) return Progress::aborted;
  if (findings_.has_errors()) return Progress::invalid;
  return Progress::need_more;
}

Report ZipValidator::snapshot() const { return report(); }

Report ZipValidator::finish() {
  if (!finished_) {
    add_end_of_input_findings();
    settle_torchscript();
    finished_ = true;
  }
  return report();
}

Report ZipValidator::report() const {
  Report r = report_of(Format::zip, pos_, findings_, aborted_ ? aborted_ : content_.aborted());
  // The summary copies what this walker keeps: charged before it is made.
  if (!hold(kept_heap_bytes())) {
    if (!r.aborted)
      r.aborted = Aborted{"zip-memory-budget", "no memory left in the shared budget for the report's copy of the summaries",
                          AbortKind::memory_budget};
    r.valid = false;
    return r;
  }
  r.summary = summary();
  return r;
}

}  // namespace detail::zip

std::unique_ptr<Validator> make_zip_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::zip::ZipValidator>(limits, budget);
}

Report validate_zip(std::string_view bytes, const Limits& limits) {
  return validate_whole(*make_zip_validator(limits), bytes);
}

}  // namespace tensorgate
