// GgufValidator: what the metadata means. The keys the summary shows, GG3 (general.alignment)
// and the GGW checks on the tokenizer, special tokens and the architecture's parameters.
#include <array>

#include "common/printable.hpp"
#include "gguf/validator.hpp"

namespace tensorgate::detail::gguf {
namespace {

constexpr std::array<std::string_view, 3> kArchParams = {".context_length", ".block_count", ".embedding_length"};

bool string_shape(const ValueShape& s) { return s.type == kString; }
bool array_of(const std::optional<ValueShape>& s, std::uint32_t elem) {
  return s && s->type == kArray && s->elem_type == elem;
}

std::string shape_name(const ValueShape& s) {
  if (s.type != kArray) return std::string(value_type_name(s.type));
  return "an array of " + std::string(value_type_name(s.elem_type));
}

}  // namespace

std::string_view value_type_name(std::uint32_t t) {
  constexpr std::array<std::string_view, kValueTypeCount> names = {
      "u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64"};
  return t < kValueTypeCount ? names[t] : "unknown";
}

KeyRole classify_key(std::string_view key) {
  if (key == "general.alignment") return KeyRole::alignment;
  if (key == "general.architecture") return KeyRole::architecture;
  if (key == "general.name") return KeyRole::name;
  if (key == "general.file_type") return KeyRole::file_type;
  if (key == "general.quantization_version") return KeyRole::quantization_version;
  if (key == "split.no") return KeyRole::split_no;
  if (key == "split.count") return KeyRole::split_count;
  if (key == "split.tensors.count") return KeyRole::split_tensors_count;
  if (key.starts_with("tokenizer.")) {
    if (key == "tokenizer.ggml.model") return KeyRole::tokenizer_model;
    if (key == "tokenizer.ggml.tokens") return KeyRole::tokens;
    if (key == "tokenizer.ggml.scores") return KeyRole::scores;
    if (key == "tokenizer.ggml.token_type") return KeyRole::token_type;
    if (key == "tokenizer.ggml.merges") return KeyRole::merges;
    if (key.starts_with("tokenizer.ggml.") && key.ends_with("_token_id")) return KeyRole::special_token;
    if (key == "tokenizer.chat_template" || key.starts_with("tokenizer.chat_template."))
      return KeyRole::chat_template;
  }
  for (const std::string_view suffix : kArchParams)
    if (key.ends_with(suffix) && key.size() > suffix.size()) return KeyRole::arch_param;
  return KeyRole::none;
}

// Before a pair's value is read: whether its string is kept (summary) or scanned (template).
void GgufValidator::begin_value_facts(std::uint32_t type) {
  const bool first = !kv_duplicate_;
  // Every top-level string is retained (cut at kRetain): the summary shows some, and short
  // ones are kept as scalars (keep_scalar).
  str_retain_ = first && type == kString;
  str_scan_ = type == kString && role_ == KeyRole::chat_template;
  if (str_scan_) scan_.reset();
  retained_.clear();
  retained_sha_.reset();
}

void GgufValidator::note_string_utf8(std::uint64_t at) {
  if (kv_utf8_warned_) return;
  kv_utf8_warned_ = true;
  findings_.add(Rule::ggw_string_utf8, "a string in " + quoted(key_) + " is not valid UTF-8", at);
}

// A pair is complete: remember what the summary and the later checks need.
void GgufValidator::record_kv_facts() {
  if (kv_duplicate_) return;
  keep_scalar();
  if (role_ == KeyRole::none) return;
  const auto wrong_type = [&](Rule rule, std::string_view expected) {
    findings_.add(rule, quoted(key_) + " is " + shape_name(shape_) + ", not " + std::string(expected), shape_.pos);
  };
  const auto small_int = [&]() -> std::optional<std::uint32_t> {
    if (shape_.type != kArray && int_value_ && !int_value_->negative && int_value_->magnitude <= UINT32_MAX)
      return static_cast<std::uint32_t>(int_value_->magnitude);
    return std::nullopt;
  };
  switch (role_) {
    case KeyRole::alignment: check_alignment(); break;
    case KeyRole::architecture:
    case KeyRole::name:
    case KeyRole::tokenizer_model: {
      if (role_ == KeyRole::architecture) facts_.architecture_seen = true;
      auto& slot = role_ == KeyRole::architecture ? facts_.architecture
                   : role_ == KeyRole::name       ? facts_.name
                                                  : facts_.tokenizer_model;
      if (string_shape(shape_)) slot = retained_;
      else wrong_type(Rule::ggw_metadata_type, "a string");
      if (retained_sha_) facts_.cut_strings.push_back(GgufStringCut{std::string(key_), retained_len_, retained_sha_->hex_digest()});
      retained_sha_.reset();
      break;
    }
    case KeyRole::file_type:
    case KeyRole::quantization_version: {
      auto& slot = role_ == KeyRole::file_type ? facts_.file_type : facts_.quantization_version;
      if (const auto v = small_int()) slot = *v;
      else wrong_type(Rule::ggw_metadata_type, "a u32");
      break;
    }
    case KeyRole::tokens:
    case KeyRole::merges:
    case KeyRole::scores:
    case KeyRole::token_type: {
      const std::uint32_t elem = role_ == KeyRole::scores ? kF32 : role_ == KeyRole::token_type ? kI32 : kString;
      auto& slot = role_ == KeyRole::tokens   ? facts_.tokens
                   : role_ == KeyRole::merges ? facts_.merges
                   : role_ == KeyRole::scores ? facts_.scores
                                              : facts_.token_type;
      slot = shape_;
      if (!array_of(slot, elem)) wrong_type(Rule::ggw_tokenizer_type, "an array of " + std::string(value_type_name(elem)));
      break;
    }
    case KeyRole::special_token:
      facts_.special_tokens.push_back(KeyedInt{std::string(key_), shape_.type == kArray ? std::nullopt : int_value_, shape_.pos});
      if (!facts_.special_tokens.back().value) wrong_type(Rule::ggw_tokenizer_type, "an integer");
      break;
    case KeyRole::chat_template:
      if (string_shape(shape_)) facts_.chat_template = true;
      else wrong_type(Rule::ggw_metadata_type, "a string");
      break;
    case KeyRole::split_no: record_split(facts_.split_no, kU16); break;
    case KeyRole::split_count: record_split(facts_.split_count, kU16); break;
    case KeyRole::split_tensors_count: record_split(facts_.split_tensors_count, kI32); break;
    case KeyRole::arch_param:
      facts_.arch_params.push_back(KeyedInt{std::string(key_), shape_.type == kArray ? std::nullopt : int_value_, shape_.pos});
      break;
    case KeyRole::none: break;
  }
}

// The chat template value is complete: its CT findings, at their places in the file.
void GgufValidator::judge_template() {
  for (ct::Result& r : scan_.finish())
    findings_.add(r.rule, quoted(key_) + " at byte " + std::to_string(r.offset) + " " + r.message,
                  str_pos_ + len_bytes_ + r.offset);
}

// split.no, split.count, split.tensors.count: kept when a non-negative integer (the GS checks of
// a set judge them); llama.cpp reads them only as a u16, u16 and i32.
void GgufValidator::record_split(std::optional<std::uint64_t>& slot, std::uint32_t llama_type) {
  const std::string expected(value_type_name(llama_type));
  if (shape_.type == kArray || !int_value_ || int_value_->negative) {
    findings_.add(Rule::ggw_metadata_type, quoted(key_) + " is " + shape_name(shape_) + ", not a non-negative " + expected, shape_.pos);
    return;
  }
  slot = int_value_->magnitude;
  if (shape_.type != llama_type) {
    findings_.add(Rule::ggw_metadata_type, quoted(key_) + " is " + shape_name(shape_) + ": llama.cpp reads it only as " + expected, shape_.pos);
    note_llama_refuses(std::string(key_) + " of type " + shape_name(shape_));
  }
}

// A scalar pair for GgufSummary::scalars, within its fixed caps. A chat template is never kept
// (the summary promises its text is never shown).
void GgufValidator::keep_scalar() {
  // retained_ holds at most kRetain bytes: a longer limit could not tell a whole string.
  const std::size_t max_bytes = static_cast<std::size_t>(std::min<std::uint64_t>(limits_.gguf.max_scalar_bytes, kRetain - 1));
  if (facts_.scalars.size() >= limits_.gguf.max_scalars_kept || key_.size() > max_bytes) return;
  if (role_ == KeyRole::chat_template || shape_.type == kArray) return;
  if (shape_.type == kString) {
    if (retained_.size() <= max_bytes) facts_.scalars.push_back(GgufScalar{std::string(key_), kString, 0, retained_});
    return;
  }
  facts_.scalars.push_back(GgufScalar{std::string(key_), shape_.type, scalar_bits_, {}});
}

// GG3: general.alignment is a u32, a non-zero power of two; the spec also wants a multiple of 8.
void GgufValidator::check_alignment() {
  facts_.alignment_seen = true;
  if (shape_.type != kU32) {
    facts_.alignment_bad = true;
    findings_.add(Rule::gg3_alignment_type, "general.alignment is " + shape_name(shape_) + ", not a u32", shape_.pos);
    return;
  }
  const std::uint64_t a = int_value_ ? int_value_->magnitude : 0;
  if (a == 0 || (a & (a - 1)) != 0) {
    facts_.alignment_bad = true;
    findings_.add(Rule::gg3_alignment_value, "general.alignment is " + std::to_string(a) + ", not a non-zero power of two",
                  shape_.pos);
    return;
  }
  if (a % 8 != 0)
    findings_.add(Rule::ggw_alignment,
                  "general.alignment is " + std::to_string(a) + ": llama.cpp loads it, the spec wants a multiple of 8",
                  shape_.pos);
  facts_.alignment = a;
}

// Every pair is read: checks across keys.
void GgufValidator::check_metadata() {
  // A split set's later shards carry only split.*: its first shard has the metadata (GS).
  const bool later_shard = facts_.split_no && *facts_.split_no > 0;
  if (!facts_.architecture_seen && !later_shard)
    findings_.add(Rule::ggw_architecture, "general.architecture is missing: llama.cpp cannot load the model", header_end_);
  if (facts_.architecture) {
    for (const KeyedInt& p : facts_.arch_params) {
      if (!p.key.starts_with(*facts_.architecture) || p.key.size() <= facts_.architecture->size() ||
          p.key[facts_.architecture->size()] != '.' || p.key.find('.', facts_.architecture->size() + 1) != std::string::npos)
        continue;
      if (!p.value || p.value->negative) {
        findings_.add(Rule::ggw_metadata_type, quoted(p.key) + " is not a non-negative integer", p.pos);
        continue;
      }
      const std::string_view suffix = std::string_view(p.key).substr(facts_.architecture->size());
      if (suffix == kArchParams[0]) facts_.context_length = p.value->magnitude;
      if (suffix == kArchParams[1]) facts_.block_count = p.value->magnitude, facts_.block_count_pos = p.pos;
      if (suffix == kArchParams[2]) facts_.embedding_length = p.value->magnitude;
    }
  }
  // tokens, scores and token_type describe the same vocabulary, index by index.
  const std::optional<ValueShape>* arrays[] = {&facts_.tokens, &facts_.scores, &facts_.token_type};
  const std::optional<ValueShape>* first = nullptr;
  for (const auto* a : arrays) {
    if (!*a || (*a)->type != kArray) continue;
    if (!first) {
      first = a;
    } else if ((*a)->count != (*first)->count) {
      findings_.add(Rule::ggw_tokenizer_length,
                    "the tokenizer arrays have " + std::to_string((*first)->count) + " and " +
                        std::to_string((*a)->count) + " elements",
                    (*a)->pos);
      break;
    }
  }
  if (!facts_.tokens || facts_.tokens->type != kArray) return;
  const std::uint64_t vocab = facts_.tokens->count;
  for (const KeyedInt& t : facts_.special_tokens) {
    if (!t.value || (!t.value->negative && t.value->magnitude < vocab)) continue;
    findings_.add(Rule::ggw_special_token,
                  quoted(t.key) + " is " + (t.value->negative ? "-" : "") + std::to_string(t.value->magnitude) +
                      ", outside the vocabulary of " + std::to_string(vocab) + " tokens",
                  t.pos);
  }
}

}  // namespace tensorgate::detail::gguf
