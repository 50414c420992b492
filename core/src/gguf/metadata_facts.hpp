#pragma once
// What the GGUF validator remembers of the metadata: the few keys the summary shows and the
// GGW checks need, recognised by name as each key completes (everything else is only checked).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/gguf.hpp"

namespace tensorgate::detail::gguf {

// GGUF value types (gguf_type).
enum ValueType : std::uint32_t {
  kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7,
  kString = 8, kArray = 9, kU64 = 10, kI64 = 11, kF64 = 12,
};
inline constexpr std::uint32_t kValueTypeCount = 13;
// Byte size of a fixed-size value type; 0 for string and array.
constexpr std::uint32_t scalar_size(std::uint32_t t) {
  constexpr std::uint32_t sizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
  return t < kValueTypeCount ? sizes[t] : 0;
}
constexpr bool is_integer_type(std::uint32_t t) {
  return t == kU8 || t == kI8 || t == kU16 || t == kI16 || t == kU32 || t == kI32 || t == kU64 ||
         t == kI64;
}
constexpr bool is_signed_type(std::uint32_t t) {
  return t == kI8 || t == kI16 || t == kI32 || t == kI64;
}
std::string_view value_type_name(std::uint32_t t);

enum class KeyRole : std::uint8_t {
  none, alignment, architecture, name, file_type, quantization_version, tokenizer_model,
  tokens, scores, token_type, merges, special_token, chat_template, arch_param,
};
KeyRole classify_key(std::string_view key);

// The shape of one key-value pair's value.
struct ValueShape {
  std::uint32_t type = 0;       // the value type
  std::uint32_t elem_type = 0;  // arrays: the element type
  std::uint64_t count = 0;      // arrays: the element count
  std::uint64_t pos = 0;        // where the value type field is
};

// An integer scalar, sign kept apart so that every integer type fits.
struct IntValue {
  bool negative = false;
  std::uint64_t magnitude = 0;
};

struct KeyedInt {
  std::string key;
  std::optional<IntValue> value;  // unset: the value was not an integer scalar
  std::uint64_t pos = 0;
};

struct MetaFacts {
  // First occurrences only: a repeated key is GG2.duplicate-key anyway.
  bool alignment_seen = false;
  std::optional<std::uint64_t> alignment;  // a valid general.alignment
  bool alignment_bad = false;              // GG3 refused it
  bool architecture_seen = false;
  std::optional<std::string> architecture, name, tokenizer_model;
  std::optional<std::uint32_t> file_type, quantization_version;
  std::optional<ValueShape> tokens, scores, token_type, merges;
  std::vector<KeyedInt> arch_params;  // keys ending in .context_length, .block_count, ...
  std::vector<KeyedInt> special_tokens;
  bool chat_template = false;
  // <arch>.context_length, .block_count and .embedding_length, once the architecture is known.
  std::optional<std::uint64_t> context_length, block_count, embedding_length;
  std::uint64_t block_count_pos = 0;
  std::vector<GgufScalar> scalars;  // GgufSummary::scalars
  std::vector<GgufStringCut> cut_strings;  // GgufSummary::cut_strings
};

}  // namespace tensorgate::detail::gguf
