#include "protobuf/wire_reader.hpp"

#include <algorithm>
#include <cassert>

namespace tensorgate::detail::protobuf {

std::string_view wire_error_text(WireError e) {
  switch (e) {
#define TENSORGATE_WIRE_ERROR(id, text) \
  case WireError::id:                   \
    return text;
#include "protobuf/wire_errors.def"
#undef TENSORGATE_WIRE_ERROR
  }
  return "malformed";
}

WireReader::WireReader(WireHandler& handler, const WireLimits& limits) : h_(handler), limits_(limits) {
  frames_.reserve(std::min<std::uint32_t>(limits_.max_depth, 64));
}

bool WireReader::feed(std::span<const unsigned char> chunk) {
  const unsigned char* p = chunk.data();
  std::size_t n = chunk.size();
  while (n > 0 && !fault_ && !stopped_) {
    const std::size_t used = step(p, n);
    p += used;
    n -= used;
  }
  return !fault_ && !stopped_;
}

void WireReader::skip(std::uint64_t count) {
  assert(count <= skippable());
  if (count == 0) return;
  left_ -= count;
  pos_ += count;
  if (left_ == 0) field_done();
}

bool WireReader::finish() {
  if (fault_) return false;
  if (stopped_) return true;
  if (state_ != State::tag || varint_bytes_ != 0) {
    fail(WireError::truncated, field_pos_);  // a field cut short
    return false;
  }
  if (!frames_.empty() || (total_ && pos_ < *total_)) {
    fail(WireError::truncated, pos_);  // a message cut short, or fewer bytes than announced
    return false;
  }
  return true;
}

void WireReader::fail(WireError e, std::uint64_t pos) {
  if (!fault_) fault_ = WireFault{e, pos};
}

// Every call consumes at least one byte or fails, so feed() ends.
std::size_t WireReader::step(const unsigned char* p, std::size_t n) {
  // A field never reads past the message that holds it. Only a varint can reach that end
  // unannounced: a fixed-size or length-delimited field was checked against it (fits()), and
  // a message that has ended is closed at once (field_done()).
  const std::uint64_t room = end() - pos_;
  if (room == 0) {
    fail(WireError::past_parent, field_pos_);
    return 0;
  }
  const std::size_t avail = static_cast<std::size_t>(std::min<std::uint64_t>(n, room));
  switch (state_) {
    case State::tag:
    case State::varint_value:
    case State::length: return take_varint(p, avail);
    case State::fixed: {
      std::size_t i = 0;
      while (i < avail && fixed_have_ < fixed_size_) fixed_ |= std::uint64_t{p[i++]} << (8 * fixed_have_++);
      pos_ += i;
      if (fixed_have_ == fixed_size_) on_fixed();
      return i;
    }
    case State::skip: {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(avail, left_));
      skip(take);
      return take;
    }
    case State::keep: {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(avail, left_));
      kept_.append(reinterpret_cast<const char*>(p), take);
      pos_ += take;
      left_ -= take;
      if (left_ == 0) {
        h_.on_bytes(kind(), field_, kept_, field_pos_);
        field_done();
      }
      return take;
    }
    case State::packed: return take_packed(p, avail);
  }
  return 0;
}

WireReader::VarintStep WireReader::varint_byte(unsigned char b) {
  // The 10th byte holds bit 63 alone: 0 or 1, and no continuation.
  if (varint_bytes_ == 9 && b > 1) return VarintStep::bad;
  varint_ |= std::uint64_t{b & 0x7fu} << (7 * varint_bytes_);
  ++varint_bytes_;
  return b & 0x80 ? VarintStep::more : VarintStep::done;
}

std::size_t WireReader::take_varint(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const VarintStep s = varint_byte(p[i]);
    if (s == VarintStep::more) continue;
    pos_ += i + 1;
    if (s == VarintStep::bad) {
      fail(WireError::bad_varint, field_pos_);
      return i + 1;
    }
    const std::uint64_t v = varint_;
    varint_ = 0;
    varint_bytes_ = 0;
    switch (state_) {
      case State::tag: on_tag(v); break;
      case State::varint_value:
        h_.on_varint(kind(), field_, v, field_pos_);
        field_done();
        break;
      case State::length: on_length(v); break;
      default: break;
    }
    return i + 1;
  }
  pos_ += n;
  return n;
}

std::size_t WireReader::take_packed(const unsigned char* p, std::size_t n) {
  const std::size_t avail = static_cast<std::size_t>(std::min<std::uint64_t>(n, left_));
  std::size_t i = 0;
  if (packed_ == LenAction::packed_varint) {
    while (i < avail) {
      const VarintStep s = varint_byte(p[i++]);
      if (s == VarintStep::more) continue;
      if (s == VarintStep::bad) {
        pos_ += i;
        fail(WireError::bad_varint, field_pos_);
        return i;
      }
      h_.on_varint(kind(), field_, varint_, field_pos_);
      varint_ = 0;
      varint_bytes_ = 0;
      if (stopped_) break;
    }
  } else {
    const unsigned size = packed_ == LenAction::packed_fixed32 ? 4 : 8;
    while (i < avail) {
      fixed_ |= std::uint64_t{p[i++]} << (8 * fixed_have_++);
      if (fixed_have_ < size) continue;
      if (size == 4) h_.on_fixed32(kind(), field_, static_cast<std::uint32_t>(fixed_), field_pos_);
      else h_.on_fixed64(kind(), field_, fixed_, field_pos_);
      fixed_ = 0;
      fixed_have_ = 0;
      if (stopped_) break;
    }
  }
  pos_ += i;
  left_ -= i;
  if (left_ == 0) {
    if (varint_bytes_ != 0) fail(WireError::past_parent, field_pos_);  // a varint cut by the field's end
    else field_done();
  }
  return i;
}

void WireReader::on_tag(std::uint64_t tag) {
  if (tag > UINT32_MAX) return fail(WireError::tag_too_large, field_pos_);
  field_ = static_cast<std::uint32_t>(tag >> 3);
  if (field_ == 0) return fail(WireError::field_zero, field_pos_);
  switch (tag & 7) {
    case 0: state_ = State::varint_value; return;
    case 1:
    case 5:
      fixed_size_ = (tag & 7) == 1 ? 8 : 4;
      if (!fits(fixed_size_)) return;
      fixed_ = 0;
      fixed_have_ = 0;
      state_ = State::fixed;
      return;
    case 2: state_ = State::length; return;
    case 3:
    case 4: return fail(WireError::group, field_pos_);
    default: return fail(WireError::bad_wire_type, field_pos_);
  }
}

void WireReader::on_fixed() {
  if (fixed_size_ == 4) h_.on_fixed32(kind(), field_, static_cast<std::uint32_t>(fixed_), field_pos_);
  else h_.on_fixed64(kind(), field_, fixed_, field_pos_);
  field_done();
}

// Whether `bytes` more of the current field fit in the message that holds it and in the input.
bool WireReader::fits(std::uint64_t bytes) {
  if (bytes > end() - pos_) {
    fail(WireError::past_parent, field_pos_);
    return false;
  }
  if (total_ && bytes > *total_ - std::min(pos_, *total_)) {
    fail(WireError::past_end, field_pos_);
    return false;
  }
  return true;
}

void WireReader::on_length(std::uint64_t length) {
  if (!fits(length)) return;
  const LenChoice c = h_.on_len(kind(), field_, length, field_pos_);
  if (stopped_) return;
  left_ = length;
  switch (c.action) {
    case LenAction::skip: state_ = State::skip; break;
    case LenAction::keep:
      if (length > limits_.max_kept_bytes) return fail(WireError::kept_too_large, field_pos_);
      kept_.clear();
      kept_.reserve(static_cast<std::size_t>(length));
      state_ = State::keep;
      if (length == 0) h_.on_bytes(kind(), field_, {}, field_pos_);
      break;
    case LenAction::message:
      if (frames_.size() >= limits_.max_depth) return fail(WireError::too_deep, field_pos_);
      frames_.push_back(Frame{pos_ + length, c.kind});
      left_ = 0;
      return field_done();  // its fields come next (or it ends here, when empty)
    case LenAction::packed_fixed32:
    case LenAction::packed_fixed64:
      if (length % (c.action == LenAction::packed_fixed32 ? 4 : 8)) return fail(WireError::packed_size, field_pos_);
      [[fallthrough]];
    case LenAction::packed_varint:
      packed_ = c.action;
      fixed_ = 0;
      fixed_have_ = 0;
      state_ = State::packed;
      break;
  }
  if (length == 0) field_done();
}

// The field is complete: the next one starts here, after every message that ends here.
void WireReader::field_done() {
  state_ = State::tag;
  while (!frames_.empty() && pos_ == frames_.back().end && !stopped_) {
    const Frame f = frames_.back();
    frames_.pop_back();
    h_.on_message_end(f.kind, pos_);
  }
  field_pos_ = pos_;
}

}  // namespace tensorgate::detail::protobuf
