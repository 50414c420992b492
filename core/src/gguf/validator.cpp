// GgufValidator: the byte loop, the primitives it reads (fields, strings, runs of fixed-size
// array elements), memory accounting and the checkpoints that keep reports hint-independent.
#include "gguf/validator.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace tensorgate::detail::gguf {

GgufValidator::GgufValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), budget_(budget), findings_(limits.max_findings) {
  limits_.gguf.max_string_bytes = std::min(limits_.gguf.max_string_bytes, kGgufMaxString);
  limits_.gguf.max_array_elements = std::min(limits_.gguf.max_array_elements, kGgufMaxArrayElements);
  limits_.gguf.max_array_depth = std::min(limits_.gguf.max_array_depth, kGgufMaxArrayDepth);
  est_.names_arena.emplace(GgufTableBuilder::name_blocks(*est_.table));
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
      if (str_.kind == StrKind::element && field_.have == 0) {
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
  field_.need = bytes;
  field_.have = 0;
}

std::size_t GgufValidator::take_field(const unsigned char* p, std::size_t n) {
  if (field_.have == 0 && n >= field_.need) {  // the whole field is here: no copy
    field_.pos = pos_;
    pos_ += field_.need;
    std::uint64_t v = 0;
    for (unsigned i = 0; i < field_.need; ++i) v = (v << 8) | p[header_.big_endian ? i : field_.need - 1 - i];
    const unsigned took = field_.need;
    on_field(v);
    return took;
  }
  const std::size_t take = std::min<std::size_t>(n, field_.need - field_.have);
  if (field_.have == 0) field_.pos = pos_;
  std::memcpy(field_.scratch.data() + field_.have, p, take);
  field_.have += static_cast<unsigned>(take);
  pos_ += take;
  if (field_.have == field_.need) {
    field_.have = 0;
    on_field(decode(field_.need));
  }
  return take;
}

// The field in field_.scratch as an unsigned integer, in the file's byte order.
std::uint64_t GgufValidator::decode(unsigned bytes) const {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) {
    const unsigned k = header_.big_endian ? i : bytes - 1 - i;
    v = (v << 8) | field_.scratch[k];
  }
  return v;
}

void GgufValidator::on_field(std::uint64_t v) {
  switch (state_) {
    case State::version: on_version(static_cast<std::uint32_t>(v)); break;
    case State::tensor_count: header_.n_tensors = v; expect(State::kv_count, header_.len_bytes); break;
    case State::kv_count: header_.n_kv = v; on_counts(); break;
    case State::key_len: on_key_length(v); break;
    case State::value_type: start_value(static_cast<std::uint32_t>(v)); break;
    case State::scalar: on_scalar(v); break;
    case State::str_len: start_string(v, str_.kind); break;
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
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, str_.left));
  const std::string_view piece(reinterpret_cast<const char*>(p), take);
  if (str_.buffer) {
    if (str_.buf.size() + take > limits_.gguf.max_key_bytes && str_.kind == StrKind::key) {
      abort_with("gguf-key-bytes", "a key longer than this validator's limit of " +
                                       std::to_string(limits_.gguf.max_key_bytes) + " bytes");
      return take;
    }
    str_.buf.append(piece);
  } else {
    if (str_.vocab && take > 0) {  // the first TokenizerCheck::kMaxKept bytes, then counted
      const std::size_t room = TokenizerCheck::kMaxKept - std::min(str_.buf.size(), TokenizerCheck::kMaxKept);
      str_.buf.append(piece.substr(0, room));
      str_.vocab_cut += take - std::min(take, room);
      str_.vocab_last = piece.back();
    }
    str_.utf8.feed(p, take);
    if (str_.scan) str_.template_scan.feed(piece);
    if (str_.retain && kv_.retained.size() < kRetain)
      kv_.retained.append(piece.substr(0, kRetain - kv_.retained.size()));
    if (kv_.retained_sha) kv_.retained_sha->update(piece.data(), piece.size());
  }
  str_.left -= take;
  pos_ += take;
  if (str_.left == 0) on_string_done();
  return take;
}

// A run of fixed-size array elements: skipped, except bools, whose bytes must be 0 or 1.
std::size_t GgufValidator::take_bulk(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, kv_.bulk_left));
  if (kv_.bulk_bool) check_bool_run(p, take);
  kv_.bulk_left -= take;
  pos_ += take;
  if (kv_.bulk_left == 0) {
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
  const unsigned kv_min = header_.len_bytes + 4 + 1;        // key length, type, a one-byte value
  const unsigned ti_min = header_.len_bytes + 4 + 4 + 8;    // name length, n_dims, type, offset
  uint128 want = 0;
  switch (state_) {
    // The fixed header: the rest of the field, then the fields after it (counts at their
    // narrowest, 4 bytes, until the version says).
    case State::magic: want = 4 - field_.magic_have + 4 + 8; break;
    case State::version: want = field_.need - field_.have + 8; break;
    case State::tensor_count: want = field_.need - field_.have + header_.len_bytes; break;
    case State::key_bytes:
    case State::str_bytes:
    case State::name_bytes: want = str_.left; break;
    case State::arr_bulk: want = kv_.bulk_left; break;
    default: want = field_.need - field_.have; break;
  }
  for (unsigned i = 0; i < kv_.depth; ++i) {
    const Frame& f = kv_.frames[i];
    if (i + 1 == kv_.depth && state_ == State::arr_bulk) break;
    const unsigned elem_min = f.elem_type == kString ? header_.len_bytes
                              : f.elem_type == kArray ? 4 + header_.len_bytes
                                                      : std::max(1u, scalar_size(f.elem_type));
    if (f.left > 1) want += static_cast<uint128>(f.left - 1) * elem_min;
  }
  if (unit_.kind == Unit::kv) {
    want += static_cast<uint128>(header_.n_kv - unit_.index - 1) * kv_min;
    want += static_cast<uint128>(header_.n_tensors) * ti_min;
  } else if (unit_.kind == Unit::tensor) {
    want += static_cast<uint128>(header_.n_tensors - unit_.index - 1) * ti_min;
  }
  return want == 0 ? 1 : want > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(want);
}

std::uint64_t GgufValidator::bytes_wanted() const {
  if (state_ == State::data || state_ == State::stopped || state_ == State::finished) return 0;
  return metadata_lower_bound();
}

}  // namespace tensorgate::detail::gguf
