// GgufValidator: the byte loop, the primitives it reads (fields, strings, runs of fixed-size
// array elements), memory accounting and the checkpoints that keep reports hint-independent.
#include "gguf/validator.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace tensorgate::detail::gguf {

GgufValidator::GgufValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), budget_(budget), findings_(limits.max_findings), scan_(limits.chat_template),
      table_(std::make_shared<GgufTensorTable>()) {
  limits_.gguf.max_string_bytes = std::min(limits_.gguf.max_string_bytes, kGgufMaxString);
  limits_.gguf.max_array_elements = std::min(limits_.gguf.max_array_elements, kGgufMaxArrayElements);
  limits_.gguf.max_array_depth = std::min(limits_.gguf.max_array_depth, kGgufMaxArrayDepth);
  names_arena_.emplace(GgufTableBuilder::name_blocks(*table_));
}

GgufValidator::~GgufValidator() {
  if (budget_ && budget_held_) budget_->release(budget_held_);
}

Progress GgufValidator::feed(std::span<const std::byte> chunk) {
  if (state_ == State::finished) return progress();
  bytes_seen_ += chunk.size();
  const auto* p = reinterpret_cast<const unsigned char*>(chunk.data());
  std::size_t n = chunk.size();
  while (n > 0) {
    if (state_ == State::data || state_ == State::stopped) break;  // only counted
    const std::size_t used = step(p, n);
    p += used;
    n -= used;
  }
  return progress();
}

std::size_t GgufValidator::step(const unsigned char* p, std::size_t n) {
  switch (state_) {
    case State::magic: return take_magic(p, n);
    case State::key_bytes:
    case State::str_bytes:
    case State::name_bytes: return take_string(p, n);
    case State::arr_bulk: return take_bulk(p, n);
    case State::str_len:
      if (str_kind_ == StrKind::element && have_ == 0) {
        if (const std::size_t used = fast_string_elements(p, n)) return used;
      }
      return take_field(p, n);
    default: return take_field(p, n);
  }
}

Progress GgufValidator::skip(std::uint64_t count) {
  assert(bytes_wanted() == 0 && "skip() only past the bytes the validator looks at");
  if (bytes_wanted() != 0 || state_ == State::finished) return progress();
  bytes_seen_ += count;
  return progress();
}

void GgufValidator::expect(State s, unsigned bytes) {
  if (state_ == State::stopped) return;  // a stop is final, whatever the caller goes on to do
  state_ = s;
  need_ = bytes;
  have_ = 0;
}

std::size_t GgufValidator::take_field(const unsigned char* p, std::size_t n) {
  if (have_ == 0 && n >= need_) {  // the whole field is here: no copy
    field_pos_ = pos_;
    pos_ += need_;
    std::uint64_t v = 0;
    for (unsigned i = 0; i < need_; ++i) v = (v << 8) | p[big_endian_ ? i : need_ - 1 - i];
    const unsigned took = need_;
    on_field(v);
    return took;
  }
  const std::size_t take = std::min<std::size_t>(n, need_ - have_);
  if (have_ == 0) field_pos_ = pos_;
  std::memcpy(scratch_.data() + have_, p, take);
  have_ += static_cast<unsigned>(take);
  pos_ += take;
  if (have_ == need_) {
    have_ = 0;
    on_field(decode(need_));
  }
  return take;
}

// The field in scratch_ as an unsigned integer, in the file's byte order.
std::uint64_t GgufValidator::decode(unsigned bytes) const {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) {
    const unsigned k = big_endian_ ? i : bytes - 1 - i;
    v = (v << 8) | scratch_[k];
  }
  return v;
}

void GgufValidator::on_field(std::uint64_t v) {
  switch (state_) {
    case State::version: on_version(static_cast<std::uint32_t>(v)); break;
    case State::tensor_count: n_tensors_ = v; expect(State::kv_count, len_bytes_); break;
    case State::kv_count: n_kv_ = v; on_counts(); break;
    case State::key_len: on_key_length(v); break;
    case State::value_type: start_value(static_cast<std::uint32_t>(v)); break;
    case State::scalar: on_scalar(v); break;
    case State::str_len: start_string(v, str_kind_); break;
    case State::arr_type: on_array_type(static_cast<std::uint32_t>(v)); break;
    case State::arr_count: on_array_count(v); break;
    case State::name_len: on_name_length(v); break;
    case State::n_dims: on_n_dims(v); break;
    case State::dim: on_dim(v); break;
    case State::tensor_type: on_tensor_type(v); break;
    case State::tensor_offset: tensor_done(v); break;
    default: break;
  }
}

// String bytes: buffered (keys, short tensor names), or streamed through the UTF-8 check and,
// for a chat template, the CT lexer. Nothing here depends on where the chunks are cut.
std::size_t GgufValidator::take_string(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, str_left_));
  const std::string_view piece(reinterpret_cast<const char*>(p), take);
  if (str_buffer_) {
    if (buf_.size() + take > limits_.gguf.max_key_bytes && str_kind_ == StrKind::key) {
      abort_with("gguf-key-bytes", "a key longer than this validator's limit of " +
                                       std::to_string(limits_.gguf.max_key_bytes) + " bytes");
      return take;
    }
    buf_.append(piece);
  } else {
    utf8_.feed(p, take);
    if (str_scan_) scan_.feed(piece);
    if (str_retain_ && retained_.size() < kRetain)
      retained_.append(piece.substr(0, kRetain - retained_.size()));
    if (retained_sha_) retained_sha_->update(piece.data(), piece.size());
  }
  str_left_ -= take;
  pos_ += take;
  if (str_left_ == 0) on_string_done();
  return take;
}

// A run of fixed-size array elements: skipped, except bools, whose bytes must be 0 or 1.
std::size_t GgufValidator::take_bulk(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, bulk_left_));
  if (bulk_bool_) check_bool_run(p, take);
  bulk_left_ -= take;
  pos_ += take;
  if (bulk_left_ == 0) {
    close_array();
    after_value();
  }
  return take;
}

void GgufValidator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  stop();
}

// Memory kept past the current item (keys, tensor records, names, hash slots), acquired from
// the shared budget a mebibyte at a time.
bool GgufValidator::charge(std::size_t bytes) {
  memory_used_ += bytes;
  if (!budget_ || memory_used_ <= budget_held_) return true;
  const std::size_t step = std::max<std::size_t>(memory_used_ - budget_held_, 1 << 20);
  if (!budget_->try_acquire(step)) {
    abort_with("gguf-memory-budget", "no memory left in the shared budget for " +
                                         std::to_string(memory_used_) + " bytes of GGUF metadata",
               AbortKind::memory_budget);
    return false;
  }
  budget_held_ += step;
  return true;
}

// An item announced to need bytes up to `min_end`. With the file size known, refute it now;
// otherwise remember it for finish(). False when refuted (the validator has stopped).
bool GgufValidator::push_checkpoint(uint128 min_end, bool header) {
  const Checkpoint c{min_end, findings_.mark(), header};
  if (total_ && min_end > *total_) {
    refute(c, *total_);
    stop();
    return false;
  }
  checkpoints_[checkpoints_used_++] = c;
  return true;
}

Progress GgufValidator::progress() const {
  if (aborted_) return Progress::aborted;
  if (findings_.has_errors()) return Progress::invalid;
  return Progress::need_more;
}

// A lower bound on the metadata bytes still to come: the rest of the current primitive, the
// smallest possible rest of the open arrays, and the smallest possible remaining items. A caller
// reading `bytes_wanted()` bytes therefore never reads past the metadata.
std::uint64_t GgufValidator::metadata_lower_bound() const {
  const unsigned kv_min = len_bytes_ + 4 + 1;        // key length, type, a one-byte value
  const unsigned ti_min = len_bytes_ + 4 + 4 + 8;    // name length, n_dims, type, offset
  uint128 want = 0;
  switch (state_) {
    // The fixed header: the rest of the field, then the fields after it (counts at their
    // narrowest, 4 bytes, until the version says).
    case State::magic: want = 4 - magic_have_ + 4 + 8; break;
    case State::version: want = need_ - have_ + 8; break;
    case State::tensor_count: want = need_ - have_ + len_bytes_; break;
    case State::key_bytes:
    case State::str_bytes:
    case State::name_bytes: want = str_left_; break;
    case State::arr_bulk: want = bulk_left_; break;
    default: want = need_ - have_; break;
  }
  for (unsigned i = 0; i < depth_; ++i) {
    const Frame& f = frames_[i];
    if (i + 1 == depth_ && state_ == State::arr_bulk) break;
    const unsigned elem_min = f.elem_type == kString ? len_bytes_
                              : f.elem_type == kArray ? 4 + len_bytes_
                                                      : std::max(1u, scalar_size(f.elem_type));
    if (f.left > 1) want += static_cast<uint128>(f.left - 1) * elem_min;
  }
  if (unit_ == Unit::kv) {
    want += static_cast<uint128>(n_kv_ - unit_index_ - 1) * kv_min;
    want += static_cast<uint128>(n_tensors_) * ti_min;
  } else if (unit_ == Unit::tensor) {
    want += static_cast<uint128>(n_tensors_ - unit_index_ - 1) * ti_min;
  }
  return want == 0 ? 1 : want > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(want);
}

std::uint64_t GgufValidator::bytes_wanted() const {
  if (state_ == State::data || state_ == State::stopped || state_ == State::finished) return 0;
  return metadata_lower_bound();
}

}  // namespace tensorgate::detail::gguf
