#include "flax/validator.hpp"

#include <algorithm>
#include <cassert>

#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::flax {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

const char* role_name(Role r) {
  switch (r) {
    case Role::map: return "a map";
    case Role::array: return "an array";
    case Role::ext: return "an ext";
    case Role::nd_tuple: return "an array's (shape, dtype, buffer)";
    case Role::nd_shape: return "an array's shape";
    case Role::complex_pair: return "a complex number's (real, imag)";
  }
  return "an item";
}

}  // namespace

FlaxValidator::FlaxValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), findings_(limits.max_findings), memory_(budget) {
  stack_.reserve(std::min<std::uint32_t>(limits.flax.max_depth, 256));
}

Progress FlaxValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  run(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
  return progress();
}

std::uint64_t FlaxValidator::bytes_skippable() const {
  if (st_ != St::payload) return 0;
  // A dtype name is kept up to its cap, the rest only counted; a key and a str leaf are text.
  if (payload_ == Payload::key || payload_ == Payload::text) return 0;
  if (payload_ == Payload::dtype && text_.size() < keep_cap_) return 0;
  return payload_left_;
}

Progress FlaxValidator::skip(std::uint64_t count) {
  assert((!reading() || count <= bytes_skippable()) && "skip() only past the bytes the validator does not look at");
  if (finished_ || count == 0) return progress();
  if (reading() && count > bytes_skippable()) {
    abort_with("flax-skipped", "bytes the reader needed were skipped by the caller; the file is not checked");
    pos_ += count;
    return progress();
  }
  run(nullptr, static_cast<std::size_t>(count));
  return progress();
}

// One loop for fed and skipped bytes: a payload that ends, an extension whose bytes are used
// up, are settled before the next byte (and after the last one), so no decision waits for a
// byte it does not need and the report cannot depend on where a chunk ends.
void FlaxValidator::run(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  for (;;) {
    if (st_ == St::payload && payload_left_ == 0) {
      payload_end();
      continue;
    }
    if (st_ == St::type && ext_.active && !ext_.abandoned && pos_ >= ext_.end) {
      abandon("its msgpack ends before its value does");
      continue;
    }
    if (i == n) return;
    switch (st_) {
      case St::stopped:
        pos_ += n - i;
        return;
      case St::done:
        trailing();
        continue;
      case St::type:
        ++pos_;
        on_type_byte(p[i++]);
        break;
      case St::head: {
        const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(head_need_ - head_got_), n - i);
        std::copy(p + i, p + i + k, head_ + head_got_);
        head_got_ += static_cast<int>(k);
        i += k;
        pos_ += k;
        if (head_got_ == head_need_) dispatch();
        break;
      }
      case St::payload: {
        const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(payload_left_, n - i));
        if (p && text_.size() < keep_cap_)
          text_.append(reinterpret_cast<const char*>(p + i), std::min(k, keep_cap_ - text_.size()));
        if (p && (payload_ == Payload::key || payload_ == Payload::text)) utf8_.feed(p + i, k);
        i += k;
        pos_ += k;
        payload_left_ -= k;
        break;
      }
    }
  }
}

void FlaxValidator::on_type_byte(unsigned char b) {
  item_offset_ = pos_ - 1;
  const int h = head_size(b);
  if (h < 0) {
    if (ext_.active) return abandon("byte 0xc1 at byte " + num(item_offset_) + ", which msgpack never uses");
    return malformed("byte 0xc1, which msgpack never uses, at byte " + num(item_offset_), item_offset_);
  }
  if (ext_.active && static_cast<std::uint64_t>(h) > ext_.end - pos_)
    return abandon("an item's header at byte " + num(item_offset_) + " runs past its end");
  type_ = b;
  head_need_ = h;
  head_got_ = 0;
  if (h == 0) dispatch();
  else st_ = St::head;
}

void FlaxValidator::dispatch() {
  st_ = St::type;
  on_item(decode_item(type_, head_, item_offset_));
}

void FlaxValidator::start_payload(const Item& it, Payload kind) {
  payload_item_ = it;
  payload_ = kind;
  payload_left_ = kind == Payload::ext_rest ? ext_.end - pos_ : it.value;
  keep_cap_ = kind == Payload::key ? limits_.flax.max_key_bytes : kind == Payload::dtype ? 64 : 0;
  text_.clear();
  utf8_ = Utf8Stream{};
  st_ = St::payload;
}

void FlaxValidator::payload_end() {
  st_ = St::type;
  switch (payload_) {
    case Payload::key: return on_key_text();
    case Payload::dtype: return on_dtype_text();
    case Payload::buffer: return item_done();
    case Payload::text:
      if (!utf8_ok()) return;
      return leaf(payload_item_);
    case Payload::leaf: return leaf(payload_item_);
    case Payload::foreign_key:
      non_string_key(payload_item_);
      return item_done();
    case Payload::foreign_ext:  // judged once whole: a cut one is the truncation alone
      findings_.add(Rule::fx_array,
                    "the extension at byte " + num(payload_item_.offset) + " is of type " +
                        std::to_string(int{payload_item_.ext_type}) +
                        ", which flax does not write (1 an array, 2 a complex number, 3 a NumPy scalar)",
                    payload_item_.offset, path_);
      return item_done();
    case Payload::ext_rest:
      ext_.active = ext_.abandoned = false;
      stack_.pop_back();  // the extension's frame
      return item_done();
  }
}

Report FlaxValidator::finish() {
  if (finished_) return report();
  finished_ = true;
  const std::uint64_t end = pos_;
  if (ext_.active && ext_.end > end) {
    // What the file said inside an extension it cuts short is dropped: with the size known the
    // extension is refused at its header, and the report is the same either way.
    findings_.rollback(ext_.mark);
    truncated(ext_.item, end);
  } else if (st_ == St::stopped || st_ == St::done) {
  } else if (st_ == St::payload) {
    truncated(payload_item_, end);
  } else if (st_ == St::head) {
    malformed("the file ends at byte " + num(end) + ", inside the header of the item at byte " + num(item_offset_),
              item_offset_);
  } else if (stack_.empty()) {
    malformed("the file holds no msgpack value", 0);
  } else {
    const Frame& f = stack_.back();
    const std::uint64_t per = f.role == Role::map ? 2 : 1;
    malformed("the file ends at byte " + num(end) + ", before the end of " + role_name(f.role) + " at byte " +
                  num(f.offset) + " (" + num((f.count - f.left) / per) + " of its " + num(f.count / per) +
                  " entries read)",
              f.offset);
  }
  return report();
}

void FlaxValidator::truncated(const Item& it, std::uint64_t at) {
  malformed("the file ends at byte " + num(at) + ", inside " + kind_name(it.kind) + " of " + num(it.value) +
                " bytes at byte " + num(it.offset) + ": a length past the end of the file",
            it.offset);
}

bool FlaxValidator::past_end(const Item& it, std::uint64_t end) {
  if (!total_ || end <= *total_) return false;
  truncated(it, *total_);
  return true;
}

void FlaxValidator::malformed(std::string message, std::uint64_t offset) {
  findings_.add(Rule::fx_msgpack, std::move(message), offset);
  st_ = St::stopped;
}

void FlaxValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  st_ = St::stopped;
}

Progress FlaxValidator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report FlaxValidator::report() const {
  Report r = report_of(Format::flax, pos_, findings_, aborted_);
  if (stack_.empty() && st_ == St::type) return r;  // not one item read
  r.summary = summary_;
  return r;
}

}  // namespace detail::flax

std::unique_ptr<Validator> make_flax_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::flax::FlaxValidator>(limits, budget);
}

}  // namespace tensorgate
