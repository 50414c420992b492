// GgufValidator: key-value pairs (GG2). Arrays nest through kv_.frames, an explicit stack bounded
// by Limits::gguf.max_array_depth: the input never drives recursion.
#include <cstring>

#include "common/printable.hpp"
#include "gguf/validator.hpp"

namespace tensorgate::detail::gguf {
namespace {

bool is_ascii(std::string_view s) {
  for (const char ch : s)
    if (static_cast<unsigned char>(ch) >= 0x80) return false;
  return true;
}

std::uint64_t load(const unsigned char* p, unsigned bytes, bool big_endian) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v = (v << 8) | p[big_endian ? i : bytes - 1 - i];
  return v;
}

unsigned element_min(std::uint32_t elem, unsigned len_bytes) {
  if (elem == kString) return len_bytes;
  if (elem == kArray) return 4 + len_bytes;
  return scalar_size(elem);
}

}  // namespace

void GgufValidator::start_kv() {
  unit_.kind = Unit::kv;
  unit_.start = pos_;
  if (unit_.index >= limits_.gguf.max_kv) {
    abort_with("gguf-kv-count", "more than this validator's limit of " + std::to_string(limits_.gguf.max_kv) +
                                    " key-value pairs");
    return;
  }
  kv_.key = {};
  kv_.role = KeyRole::none;
  kv_.shape = {};
  kv_.int_value.reset();
  kv_.retained.clear();
  kv_.utf8_warned = kv_.nested_warned = kv_.bool_warned = kv_.duplicate = false;
  expect(State::key_len, header_.len_bytes);
}

void GgufValidator::on_key_length(std::uint64_t len) { start_string(len, StrKind::key); }

void GgufValidator::on_key(std::string_view key) {
  if (key.empty()) findings_.add(Rule::gg2_key_empty, "key-value pair #" + std::to_string(unit_.index) + " has an empty key", unit_.start);
  const bool utf8 = valid_utf8(key);
  if (!utf8) findings_.add(Rule::gg2_key_utf8, "the key " + quoted(key) + " is not valid UTF-8", unit_.start);
  if (has_control(key))
    findings_.add(Rule::ggw_key_control, "the key " + quoted(key) + " holds a control character", unit_.start);
  if (utf8 && (key.size() > 65535 || !is_ascii(key)))
    findings_.add(Rule::ggw_key_format,
                  "the key " + quoted(key) + (key.size() > 65535 ? " is longer than 65,535 bytes" : " is not ASCII"),
                  unit_.start);
  if (!key.empty()) {
    if (const auto it = est_.keys.find(key); it != est_.keys.end()) {
      findings_.add(Rule::gg2_duplicate_key, "the key " + quoted(key) + " appears again", unit_.start);
      kv_.duplicate = true;
      kv_.key = *it;
    } else {
      std::size_t allocated = 0;
      kv_.key = est_.keys_arena.store(key, allocated);
      if (!charge(allocated + 2 * sizeof(std::string_view))) return;
      est_.keys.insert(kv_.key);
    }
  }
  kv_.role = classify_key(kv_.key);
  expect(State::value_type, 4);
}

// The value type of the pair, read from its own field.
void GgufValidator::start_value(std::uint32_t type) {
  kv_.shape.type = type;
  kv_.shape.pos = field_.pos;
  if (type >= kValueTypeCount) {
    findings_.add(Rule::gg2_value_type, "the value of " + quoted(kv_.key) + " has type " + std::to_string(type) + ", not 0 to 12",
                  field_.pos);
    stop();
    return;
  }
  begin_value_facts(type);
  start_element(type);
}

// A value: the pair's own (depth 0) or an element of the innermost open array.
void GgufValidator::start_element(std::uint32_t type) {
  if (type == kString) {
    str_.kind = kv_.depth == 0 ? StrKind::value : StrKind::element;
    expect(State::str_len, header_.len_bytes);
  } else if (type == kArray) {
    if (kv_.depth + 1 > limits_.gguf.max_array_depth) {
      if (kv_.depth + 1 > kGgufMaxArrayDepth)
        findings_.add(Rule::gg2_array_depth, "the value of " + quoted(kv_.key) + " nests arrays deeper than 8", pos_);
      else
        abort_with("gguf-array-depth", "arrays nested deeper than this validator's limit of " +
                                           std::to_string(limits_.gguf.max_array_depth));
      stop();
      return;
    }
    expect(State::arr_type, 4);
  } else {
    expect(State::scalar, scalar_size(type));
  }
}

void GgufValidator::on_scalar(std::uint64_t raw) {
  const std::uint32_t t = kv_.shape.type;
  kv_.scalar_bits = raw;
  if (t == kBool && raw > 1)
    findings_.add(Rule::gg2_bool, "the bool " + quoted(kv_.key) + " is " + std::to_string(raw) + ", not 0 or 1", field_.pos);
  if (is_integer_type(t)) {
    const unsigned bits = 8 * scalar_size(t);
    const bool negative = is_signed_type(t) && (raw >> (bits - 1)) & 1;
    const std::uint64_t mask = bits == 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1;
    kv_.int_value = IntValue{negative, negative ? ((~raw & mask) + 1) & mask : raw};
  }
  after_value();
}

// Every string: a key, a value, an array element or a tensor name.
void GgufValidator::start_string(std::uint64_t len, StrKind kind) {
  str_.kind = kind;
  str_.pos = field_.pos;
  str_.left = len;
  if (len > kGgufMaxString) {
    if (kind != StrKind::name)  // a tensor name already got GG4.name-length
      findings_.add(Rule::gg2_string_length,
                  "a string of " + std::to_string(len) + " bytes, longer than ggml's 1 GiB", field_.pos);
    stop();
    return;
  }
  if (!push_checkpoint(static_cast<uint128>(pos_) + len, false)) return;
  // A summary string the summary cannot keep whole: its digest, for the report's "truncated".
  const bool summary_string = kv_.role == KeyRole::architecture || kv_.role == KeyRole::name ||
                              kv_.role == KeyRole::tokenizer_model;
  if (kind == StrKind::value && kv_.depth == 0 && str_.retain && summary_string && len > kRetain) {
    kv_.retained_sha.emplace();
    kv_.retained_len = len;
  }
  if (len > limits_.gguf.max_string_bytes) {
    abort_with("gguf-string-bytes", "a string of " + std::to_string(len) + " bytes, longer than this validator's limit of " +
                                        std::to_string(limits_.gguf.max_string_bytes));
    return;
  }
  str_.buffer = kind == StrKind::key || (kind == StrKind::name && len <= kMaxName);
  str_.vocab = kind == StrKind::element && vocab_elements();
  str_.vocab_last = 0;
  str_.vocab_cut = 0;
  if (str_.buffer || str_.vocab) str_.buf.clear();
  if (kind != StrKind::value) str_.retain = str_.scan = false;
  str_.utf8.reset();
  expect(kind == StrKind::key ? State::key_bytes : kind == StrKind::name ? State::name_bytes : State::str_bytes, 0);
  if (len == 0) on_string_done();
}

void GgufValidator::on_string_done() {
  pop_checkpoint();
  switch (str_.kind) {
    case StrKind::key: on_key(str_.buf); return;
    case StrKind::name: on_name(str_.buffer ? std::string_view(str_.buf) : std::string_view()); return;
    case StrKind::value:
      if (str_.scan) judge_template();
      [[fallthrough]];
    case StrKind::element:
      if (!str_.utf8.complete_and_valid()) note_string_utf8(str_.pos);
      if (str_.vocab) {
        on_vocab_element({str_.buf, str_.buf.size() + str_.vocab_cut, str_.vocab_last}, str_.pos);
        if (state_ == State::stopped) return;
      }
      after_value();
      return;
  }
}

void GgufValidator::on_array_type(std::uint32_t elem) {
  if (elem >= kValueTypeCount) {
    findings_.add(Rule::gg2_value_type,
                  "an array in " + quoted(kv_.key) + " has element type " + std::to_string(elem) + ", not 0 to 12", field_.pos);
    stop();
    return;
  }
  if (elem == kArray && !kv_.nested_warned) {
    kv_.nested_warned = true;
    findings_.add(Rule::ggw_nested_array, quoted(kv_.key) + " holds an array of arrays: llama.cpp refuses it", field_.pos);
    note_llama_refuses("an array of arrays");
  }
  if (kv_.depth == 0) kv_.shape.elem_type = elem;
  kv_.array_elem = elem;
  expect(State::arr_count, header_.len_bytes);
}

void GgufValidator::on_array_count(std::uint64_t count) {
  if (count > kGgufMaxArrayElements) {
    findings_.add(Rule::gg2_array_length,
                  "an array in " + quoted(kv_.key) + " of " + std::to_string(count) + " elements, more than ggml's 2^30",
                  field_.pos);
    stop();
    return;
  }
  if (kv_.depth == 0) kv_.shape.count = count;
  const uint128 min_end = pos_ + static_cast<uint128>(count) * element_min(kv_.array_elem, header_.len_bytes);
  if (!push_checkpoint(min_end, false)) return;
  if (count > limits_.gguf.max_array_elements) {
    abort_with("gguf-array-elements", "an array of " + std::to_string(count) + " elements, more than this validator's limit of " +
                                          std::to_string(limits_.gguf.max_array_elements));
    return;
  }
  kv_.frames[kv_.depth++] = Frame{kv_.array_elem, count};
  if (count == 0) {
    close_array();
    after_value();
  } else if (const unsigned size = scalar_size(kv_.array_elem)) {
    kv_.bulk_left = count * size;  // at most 2^33: the count is at most 2^30
    kv_.bulk_bool = kv_.array_elem == kBool;
    expect(State::arr_bulk, 0);
  } else {
    start_element(kv_.array_elem);
  }
}

void GgufValidator::close_array() {
  --kv_.depth;
  pop_checkpoint();
}

// A value is complete: the next element of the innermost array, or the end of the pair.
void GgufValidator::after_value() {
  while (kv_.depth > 0) {
    Frame& f = kv_.frames[kv_.depth - 1];
    if (--f.left > 0) {
      start_element(f.elem_type);
      return;
    }
    close_array();  // the array is itself a complete value of its parent
  }
  kv_done();
}

void GgufValidator::kv_done() {
  if (state_ == State::stopped) return;
  record_kv_facts();
  ++unit_.index;
  if (unit_.index < header_.n_kv) {
    start_kv();
    return;
  }
  check_metadata();
  start_tensor_infos();
}

void GgufValidator::check_bool_run(const unsigned char* p, std::size_t n) {
  if (kv_.bool_warned) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] > 1) {
      kv_.bool_warned = true;
      findings_.add(Rule::gg2_bool,
                    "a bool in " + quoted(kv_.key) + " is " + std::to_string(p[i]) + ", not 0 or 1", pos_ + i);
      return;
    }
  }
}

// Whole string elements inside the chunk, without the per-field state machine: a vocabulary
// is hundreds of thousands of short strings. Returns 0 when the next one is not whole here (the
// general path takes it, limits and checkpoints included); a whole string always fits the file.
std::size_t GgufValidator::fast_string_elements(const unsigned char* p, std::size_t n) {
  Frame& f = kv_.frames[kv_.depth - 1];
  const bool vocab = vocab_elements();
  std::size_t used = 0;
  while (n - used >= header_.len_bytes) {
    const std::uint64_t len = load(p + used, header_.len_bytes, header_.big_endian);
    if (len > limits_.gguf.max_string_bytes || len > n - used - header_.len_bytes) break;
    if (!kv_.utf8_warned) {
      Utf8Stream u;
      u.feed(p + used + header_.len_bytes, static_cast<std::size_t>(len));
      if (!u.complete_and_valid()) note_string_utf8(pos_ + used);
    }
    if (vocab) {
      const std::string_view text(reinterpret_cast<const char*>(p + used + header_.len_bytes), static_cast<std::size_t>(len));
      on_vocab_element({text.substr(0, TokenizerCheck::kMaxKept), len, text.empty() ? '\0' : text.back()}, pos_ + used);
      if (state_ == State::stopped) {  // aborted: nothing more is read
        pos_ += used;
        return used;
      }
    }
    used += header_.len_bytes + static_cast<std::size_t>(len);
    if (--f.left == 0) break;
  }
  pos_ += used;
  if (used > 0 && f.left == 0) {
    f.left = 1;  // let after_value() close the array as the general path does
    after_value();
  }
  return used;
}

// The elements of the pair's own array of tokenizer.ggml.tokens or .merges: whole strings for
// GG6 (gg6_tokenizer.hpp). A repeated key's value is not the one llama.cpp reads.
bool GgufValidator::vocab_elements() const {
  return kv_.depth == 1 && !kv_.duplicate && (kv_.role == KeyRole::tokens || kv_.role == KeyRole::merges);
}

void GgufValidator::on_vocab_element(const TokenizerCheck::Element& e, std::uint64_t pos) {
  const std::uint64_t index = kv_.shape.count - kv_.frames[0].left;
  std::size_t allocated = 0;
  const std::uint64_t max = limits_.gguf.max_vocab_bytes;
  if (kv_.role == KeyRole::tokens) tokenizer_.add_token(e, index, pos, max, allocated);
  else tokenizer_.add_merge(e, index, pos, max, allocated);
  if (allocated) charge(allocated);
}

}  // namespace tensorgate::detail::gguf
