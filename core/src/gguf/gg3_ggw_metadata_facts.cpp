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
  const bool first = !kv_.duplicate;
  // Every top-level string is retained (cut at kRetain): the summary shows some, and short
  // ones are kept as scalars (keep_scalar).
  str_.retain = first && type == kString;
  str_.scan = type == kString && kv_.role == KeyRole::chat_template;
  if (str_.scan) str_.template_scan.reset();
  kv_.retained.clear();
  kv_.retained_sha.reset();
}

void GgufValidator::note_string_utf8(std::uint64_t at) {
  if (kv_.utf8_warned) return;
  kv_.utf8_warned = true;
  findings_.add(Rule::ggw_string_utf8, "a string in " + quoted(kv_.key) + " is not valid UTF-8", at);
}

// A pair is complete: remember what the summary and the later checks need.
void GgufValidator::record_kv_facts() {
  if (kv_.duplicate) return;
  keep_scalar();
  if (kv_.role == KeyRole::none) return;
  const auto wrong_type = [&](Rule rule, std::string_view expected) {
    findings_.add(rule, quoted(kv_.key) + " is " + shape_name(kv_.shape) + ", not " + std::string(expected), kv_.shape.pos);
  };
  const auto small_int = [&]() -> std::optional<std::uint32_t> {
    if (kv_.shape.type != kArray && kv_.int_value && !kv_.int_value->negative && kv_.int_value->magnitude <= UINT32_MAX)
      return static_cast<std::uint32_t>(kv_.int_value->magnitude);
    return std::nullopt;
  };
  switch (kv_.role) {
    case KeyRole::alignment: check_alignment(); break;
    case KeyRole::architecture:
    case KeyRole::name:
    case KeyRole::tokenizer_model: {
      if (kv_.role == KeyRole::architecture) est_.facts.architecture_seen = true;
      auto& slot = kv_.role == KeyRole::architecture ? est_.facts.architecture
                   : kv_.role == KeyRole::name       ? est_.facts.name
                                                  : est_.facts.tokenizer_model;
      if (string_shape(kv_.shape)) slot = kv_.retained;
      else wrong_type(Rule::ggw_metadata_type, "a string");
      if (kv_.retained_sha) est_.facts.cut_strings.push_back(GgufStringCut{std::string(kv_.key), kv_.retained_len, kv_.retained_sha->hex_digest()});
      kv_.retained_sha.reset();
      break;
    }
    case KeyRole::file_type:
    case KeyRole::quantization_version: {
      auto& slot = kv_.role == KeyRole::file_type ? est_.facts.file_type : est_.facts.quantization_version;
      if (const auto v = small_int()) slot = *v;
      else wrong_type(Rule::ggw_metadata_type, "a u32");
      break;
    }
    case KeyRole::tokens:
    case KeyRole::merges:
    case KeyRole::scores:
    case KeyRole::token_type: {
      const std::uint32_t elem = kv_.role == KeyRole::scores ? kF32 : kv_.role == KeyRole::token_type ? kI32 : kString;
      auto& slot = kv_.role == KeyRole::tokens   ? est_.facts.tokens
                   : kv_.role == KeyRole::merges ? est_.facts.merges
                   : kv_.role == KeyRole::scores ? est_.facts.scores
                                              : est_.facts.token_type;
      slot = kv_.shape;
      const bool typed = array_of(slot, elem);
      // llama.cpp reads tokens, scores and token types as their types whatever the array holds
      // (GG6); merges of another type are only not used.
      if (!typed)
        wrong_type(kv_.role == KeyRole::merges ? Rule::ggw_tokenizer_type : Rule::gg6_tokenizer_type,
                   "an array of " + std::string(value_type_name(elem)));
      if (kv_.role == KeyRole::tokens) typed ? tokenizer_.tokens_done() : tokenizer_.drop_tokens();
      break;
    }
    case KeyRole::special_token:
      est_.facts.special_tokens.push_back(KeyedInt{std::string(kv_.key), kv_.shape.type == kArray ? std::nullopt : kv_.int_value, kv_.shape.pos});
      if (!est_.facts.special_tokens.back().value) wrong_type(Rule::ggw_tokenizer_type, "an integer");
      break;
    case KeyRole::chat_template:
      if (string_shape(kv_.shape)) est_.facts.chat_template = true;
      else wrong_type(Rule::ggw_metadata_type, "a string");
      break;
    case KeyRole::split_no: record_split(est_.facts.split_no, kU16); break;
    case KeyRole::split_count: record_split(est_.facts.split_count, kU16); break;
    case KeyRole::split_tensors_count: record_split(est_.facts.split_tensors_count, kI32); break;
    case KeyRole::arch_param:
      est_.facts.arch_params.push_back(KeyedInt{std::string(kv_.key), kv_.shape.type == kArray ? std::nullopt : kv_.int_value, kv_.shape.pos});
      break;
    case KeyRole::none: break;
  }
}

// The chat template value is complete: its CT findings, at their places in the file.
void GgufValidator::judge_template() {
  for (ct::Result& r : str_.template_scan.finish())
    findings_.add(r.rule, quoted(kv_.key) + " at byte " + std::to_string(r.offset) + " " + r.message,
                  str_.pos + header_.len_bytes + r.offset);
}

// split.no, split.count, split.tensors.count: kept when a non-negative integer (the GS checks of
// a set judge them); llama.cpp reads them only as a u16, u16 and i32.
void GgufValidator::record_split(std::optional<std::uint64_t>& slot, std::uint32_t llama_type) {
  const std::string expected(value_type_name(llama_type));
  if (kv_.shape.type == kArray || !kv_.int_value || kv_.int_value->negative) {
    findings_.add(Rule::ggw_metadata_type, quoted(kv_.key) + " is " + shape_name(kv_.shape) + ", not a non-negative " + expected, kv_.shape.pos);
    return;
  }
  slot = kv_.int_value->magnitude;
  if (kv_.shape.type != llama_type) {
    findings_.add(Rule::ggw_metadata_type, quoted(kv_.key) + " is " + shape_name(kv_.shape) + ": llama.cpp reads it only as " + expected, kv_.shape.pos);
    note_llama_refuses(std::string(kv_.key) + " of type " + shape_name(kv_.shape));
  }
}

// A scalar pair for GgufSummary::scalars, within its fixed caps. A chat template is never kept
// (the summary promises its text is never shown).
void GgufValidator::keep_scalar() {
  // kv_.retained holds at most kRetain bytes: a longer limit could not tell a whole string.
  const std::size_t max_bytes = static_cast<std::size_t>(std::min<std::uint64_t>(limits_.gguf.max_scalar_bytes, kRetain - 1));
  if (est_.facts.scalars.size() >= limits_.gguf.max_scalars_kept || kv_.key.size() > max_bytes) return;
  if (kv_.role == KeyRole::chat_template || kv_.shape.type == kArray) return;
  if (kv_.shape.type == kString) {
    if (kv_.retained.size() <= max_bytes) est_.facts.scalars.push_back(GgufScalar{std::string(kv_.key), kString, 0, kv_.retained});
    return;
  }
  est_.facts.scalars.push_back(GgufScalar{std::string(kv_.key), kv_.shape.type, kv_.scalar_bits, {}});
}

// GG3: general.alignment is a u32, a non-zero power of two; the spec also wants a multiple of 8.
void GgufValidator::check_alignment() {
  est_.facts.alignment_seen = true;
  if (kv_.shape.type != kU32) {
    est_.facts.alignment_bad = true;
    findings_.add(Rule::gg3_alignment_type, "general.alignment is " + shape_name(kv_.shape) + ", not a u32", kv_.shape.pos);
    return;
  }
  const std::uint64_t a = kv_.int_value ? kv_.int_value->magnitude : 0;
  if (a == 0 || (a & (a - 1)) != 0) {
    est_.facts.alignment_bad = true;
    findings_.add(Rule::gg3_alignment_value, "general.alignment is " + std::to_string(a) + ", not a non-zero power of two",
                  kv_.shape.pos);
    return;
  }
  if (a % 8 != 0)
    findings_.add(Rule::ggw_alignment,
                  "general.alignment is " + std::to_string(a) + ": llama.cpp loads it, the spec wants a multiple of 8",
                  kv_.shape.pos);
  est_.facts.alignment = a;
}

// Every pair is read: checks across keys.
void GgufValidator::check_metadata() {
  // A split set's later shards carry only split.*: its first shard has the metadata (GS).
  const bool later_shard = est_.facts.split_no && *est_.facts.split_no > 0;
  if (!est_.facts.architecture_seen && !later_shard)
    findings_.add(Rule::ggw_architecture, "general.architecture is missing: llama.cpp cannot load the model", header_.end);
  if (est_.facts.architecture) {
    for (const KeyedInt& p : est_.facts.arch_params) {
      if (!p.key.starts_with(*est_.facts.architecture) || p.key.size() <= est_.facts.architecture->size() ||
          p.key[est_.facts.architecture->size()] != '.' || p.key.find('.', est_.facts.architecture->size() + 1) != std::string::npos)
        continue;
      if (!p.value || p.value->negative) {
        findings_.add(Rule::ggw_metadata_type, quoted(p.key) + " is not a non-negative integer", p.pos);
        continue;
      }
      const std::string_view suffix = std::string_view(p.key).substr(est_.facts.architecture->size());
      if (suffix == kArchParams[0]) est_.facts.context_length = p.value->magnitude;
      if (suffix == kArchParams[1]) est_.facts.block_count = p.value->magnitude, est_.facts.block_count_pos = p.pos;
      if (suffix == kArchParams[2]) est_.facts.embedding_length = p.value->magnitude;
    }
  }
  // tokens, scores and token_type describe the same vocabulary, index by index.
  const std::optional<ValueShape>* arrays[] = {&est_.facts.tokens, &est_.facts.scores, &est_.facts.token_type};
  const std::optional<ValueShape>* first = nullptr;
  for (const auto* a : arrays) {
    if (!*a || (*a)->type != kArray) continue;
    if (!first) {
      first = a;
    } else if ((*a)->count != (*first)->count) {
      findings_.add(Rule::gg6_tokenizer_length,
                    "the tokenizer arrays have " + std::to_string((*first)->count) + " and " +
                        std::to_string((*a)->count) + " elements",
                    (*a)->pos);
      break;
    }
  }
  check_vocabulary_text();
  if (!est_.facts.tokens || est_.facts.tokens->type != kArray) return;
  const std::uint64_t vocab = est_.facts.tokens->count;
  for (const KeyedInt& t : est_.facts.special_tokens) {
    if (!t.value || (!t.value->negative && t.value->magnitude < vocab)) continue;
    findings_.add(Rule::gg6_special_token,
                  quoted(t.key) + " is " + (t.value->negative ? "-" : "") + std::to_string(t.value->magnitude) +
                      ", outside the vocabulary of " + std::to_string(vocab) + " tokens",
                  t.pos);
  }
}

// GG6 on the tokens' and merges' text: the first offender of each kind, and how many there are.
void GgufValidator::check_vocabulary_text() {
  const auto others = [](const TokenizerCheck::Offender& o) {
    return o.count > 1 ? " (and " + std::to_string(o.count - 1) + " more)" : std::string();
  };
  if (const auto& b = tokenizer_.bad_byte_token())
    findings_.add(Rule::gg6_byte_token,
                  "token " + std::to_string(b->index) + " of tokenizer.ggml.tokens is " + quoted(b->text) +
                      ", a byte token that is not <0x> and two hex digits" + others(*b),
                  b->pos);
  if (const auto& m = tokenizer_.bad_merge(); m && !tokenizer_.merges_unjudged())
    findings_.add(Rule::gg6_merges,
                  "merge " + std::to_string(m->index) + " of tokenizer.ggml.merges, " + quoted(m->text) +
                      ", does not name two tokens of the vocabulary" + others(*m),
                  m->pos);
}

}  // namespace tensorgate::detail::gguf
