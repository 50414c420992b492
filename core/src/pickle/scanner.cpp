// The scanner's byte loop: an opcode, then its argument (fixed bytes, a counted payload, one
// or two lines), gathered across chunks when a chunk ends inside it, then the opcode runs.
// Arguments that fit in the chunk are used in place; kept text is at most max_kept_string
// bytes, and longer payloads stream by without being stored.
#include "pickle/scanner.hpp"

#include <algorithm>
#include <cstring>

#include "common/little_endian.hpp"

namespace tensorgate::detail::pickle {
namespace {

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

}  // namespace

Scanner::Scanner(const PickleLimits& limits, ScanSite site, MemoryBudget* budget)
    : limits_(limits), site_(std::move(site)), budget_(budget), m_(limits_) {}

Scanner::~Scanner() {
  if (budget_ && budget_held_ + copies_held_) budget_->release(budget_held_ + copies_held_);
}

bool Scanner::charge_copy() const {
  if (!budget_) return true;
  const std::size_t bytes = summary_heap_bytes();
  if (!budget_->try_acquire(bytes)) return false;
  copies_held_ += bytes;
  return true;
}

void Scanner::feed(const unsigned char* p, std::size_t n) {
  while (n > 0) {
    if (state_ == St::counting) {
      trailing_ += n;
      pos_ += n;
      return;
    }
    if (state_ == St::stopped) {
      pos_ += n;
      return;
    }
    const std::size_t used = step(p, n);
    p += used;
    n -= used;
    if (!covered()) return;
  }
}

std::size_t Scanner::feed_to_stop(const unsigned char* p, std::size_t n) {
  std::size_t used = 0;
  if (state_ == St::between && n > 0) used += take_between(p, n);  // the next pickle begins here
  while (used < n && state_ != St::between && state_ != St::counting && state_ != St::stopped) {
    used += step(p + used, n - used);
    if (!covered()) break;
  }
  if (state_ == St::stopped || state_ == St::counting) {  // nothing more is read: the rest is only counted
    feed(p + used, n - used);
    return n;
  }
  return used;
}

std::size_t Scanner::step(const unsigned char* p, std::size_t n) {
  switch (state_) {
    case St::opcode: return take_opcodes(p, n);
    case St::fixed: return take_fixed(p, n);
    case St::payload: return take_payload(p, n);
    case St::line: return take_line(p, n);
    case St::between: return take_between(p, n);
    case St::joblib_pad:
    case St::joblib_padding:
    case St::joblib_bytes:
    case St::joblib_inner: return take_joblib(p, n);
    default: return n;
  }
}

// Opcodes one after another, each with its argument used in place while it lies whole in the
// chunk: the common case, run without going back through feed() and step() for each (a pickle
// of small objects is ~20 opcodes per object, and the round trip was a fifth of its cost).
std::size_t Scanner::take_opcodes(const unsigned char* p, std::size_t n) {
  std::size_t used = 0;
  do {
    used += take_opcode(p + used, n - used);
    if (state_ == St::payload && used < n) used += take_payload(p + used, n - used);
    if (!covered()) break;
  } while (used < n && state_ == St::opcode);
  return used;
}

std::size_t Scanner::take_opcode(const unsigned char* p, std::size_t n) {
  m_.collect_if_due();  // between opcodes no value is held outside the stack and the memo
  op_ = p[0];
  info_ = &op_info(op_);
  op_pos_ = pos_++;
  if (!info_->known()) {
    static constexpr char kHex[] = "0123456789abcdef";
    const std::string byte = {'0', 'x', kHex[op_ >> 4], kHex[op_ & 15]};
    malformed(Rule::pk_unknown_opcode, "byte " + byte + " at byte " + std::to_string(offset_of(op_pos_)) +
                                           " is no pickle opcode");
    return 1;
  }
  ++opcodes_;
  if (info_->proto > highest_op_protocol_) highest_op_protocol_ = info_->proto;
  switch (info_->arg) {
    case Arg::none:
      exec(op_);
      return 1;
    case Arg::fixed:
    case Arg::counted: {
      need_ = info_->width;
      have_ = 0;
      length_field_ = info_->arg == Arg::counted;
      if (n - 1 >= need_) {  // the whole field is in this chunk: no copy
        pos_ += need_;
        on_fixed(le_bytes(p + 1, need_));
        return 1 + need_;
      }
      state_ = St::fixed;
      return 1;
    }
    case Arg::line:
    case Arg::line2:
      state_ = St::line;
      line_no_ = 0;
      buf_.clear();
      length_ = 0;
      line_digits_ = line_ascii_ = true;
      line_first_ = line_last_ = 0;
      return 1;
  }
  return 1;
}

std::size_t Scanner::take_fixed(const unsigned char* p, std::size_t n) {
  const std::size_t take = std::min<std::size_t>(n, need_ - have_);
  std::memcpy(scratch_.data() + have_, p, take);
  have_ += static_cast<unsigned>(take);
  pos_ += take;
  if (have_ == need_) on_fixed(le_bytes(scratch_.data(), need_));
  return take;
}

void Scanner::on_fixed(std::uint64_t v) {
  state_ = St::opcode;
  if (length_field_) return start_payload(v);
  exec_fixed(op_, v);
}

void Scanner::start_payload(std::uint64_t length) {
  if (info_->signed_length && (length & 0x80000000u)) {
    return malformed(Rule::pk_argument, at_op() + " has a negative length (" +
                                            std::to_string(static_cast<std::int32_t>(length)) + ")");
  }
  if (length > static_cast<std::uint64_t>(INT64_MAX)) {
    return malformed(Rule::pk_argument, at_op() + " announces " + std::to_string(length) +
                                            " bytes, more than any Python object holds");
  }
  const Payload kind = info_->payload;
  keep_ = ((kind == Payload::text || kind == Payload::ascii) && length <= limits_.max_kept_string) ||
          (kind == Payload::long_int && length <= 16);
  left_ = length;
  length_ = length;
  buf_.clear();
  if (length == 0) return on_payload({}, 0);
  state_ = St::payload;
}

std::size_t Scanner::take_payload(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, left_));
  const std::string_view piece(reinterpret_cast<const char*>(p), take);
  left_ -= take;
  pos_ += take;
  if (keep_ && buf_.empty() && left_ == 0) {  // all of it in this chunk: used in place
    on_payload(piece, length_);
    return take;
  }
  if (keep_) buf_.append(piece);
  if (left_ == 0) on_payload(keep_ ? std::string_view(buf_) : std::string_view(), length_);
  return take;
}

void Scanner::on_payload(std::string_view kept, std::uint64_t length) {
  state_ = St::opcode;
  exec_payload(op_, kept, length);
}

// A line argument: up to '\n'. The first max_kept_string bytes are kept; over the whole line
// the scanner notes whether it is all digits (after a sign) and all ASCII, and its first and
// last bytes, which is what the opcodes' checks need of a line too long to keep.
std::size_t Scanner::take_line(const unsigned char* p, std::size_t n) {
  const void* nl = std::memchr(p, '\n', n);
  const std::size_t seg = nl ? static_cast<std::size_t>(static_cast<const unsigned char*>(nl) - p) : n;
  for (std::size_t i = 0; i < seg; ++i) {
    const unsigned char c = p[i];
    if (!is_digit(c) && !((c == '-' || c == '+') && length_ + i == 0)) line_digits_ = false;
    if (c >= 0x80) line_ascii_ = false;
  }
  if (seg) {
    if (length_ == 0) line_first_ = p[0];
    line_last_ = p[seg - 1];
  }
  const std::size_t room = buf_.size() < limits_.max_kept_string ? limits_.max_kept_string - buf_.size() : 0;
  buf_.append(reinterpret_cast<const char*>(p), std::min(seg, room));
  length_ += seg;
  pos_ += seg;
  if (!nl) return n;
  pos_ += 1;
  on_line_done();
  return seg + 1;
}

void Scanner::on_line_done() {
  if (info_->arg == Arg::line2 && line_no_ == 0) {
    first_line_ = buf_;
    first_length_ = length_;
    line_no_ = 1;
    buf_.clear();
    length_ = 0;
    return;
  }
  state_ = St::opcode;
  if (info_->arg == Arg::line2) {
    exec_global(first_line_, first_length_, buf_, length_, op_ == op::INST);
  } else {
    exec_line(op_, length_ <= limits_.max_kept_string ? std::string_view(buf_) : std::string_view(), length_);
  }
}

}  // namespace tensorgate::detail::pickle
