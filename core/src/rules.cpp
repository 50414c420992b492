#include "tensorgate/rules.hpp"

#include <array>

namespace tensorgate {
namespace {

constexpr std::string_view family_of(std::string_view id) { return id.substr(0, id.find('.')); }

constexpr RuleInfo kRules[] = {
#define TENSORGATE_RULE_INFO(e, id, sev, title) {Rule::e, id, family_of(id), Severity::sev, title},
    TENSORGATE_SAFETENSORS_RULES(TENSORGATE_RULE_INFO)
#undef TENSORGATE_RULE_INFO
};

constexpr bool indexed_by_rule() {
  for (std::size_t i = 0; i < std::size(kRules); ++i)
    if (static_cast<std::size_t>(kRules[i].rule) != i) return false;
  return true;
}
static_assert(indexed_by_rule(), "kRules must be indexed by Rule");

// Longer explanations, one per rule (docs/rules.md says the same).
struct Help {
  Rule rule;
  std::string_view text;
};
constexpr Help kHelp[] = {
    {Rule::st1_too_short,
     "A safetensors file starts with N, the header length, as an unsigned 64-bit little-endian integer: a file of fewer than 8 bytes has no header length."},
    {Rule::st1_header_too_large,
     "N may be at most 100,000,000 (exactly 100,000,000 is allowed)."},
    {Rule::st1_truncated_header,
     "The header occupies bytes 8 to 8 + N; the file ends before that."},
    {Rule::st2_bom,
     "The header is UTF-8 JSON without a byte-order mark."},
    {Rule::st2_syntax,
     "The header must be valid JSON (RFC 8259): no comments, no trailing commas, no NaN."},
    {Rule::st2_utf8,
     "The header must be valid UTF-8, everywhere in its N bytes."},
    {Rule::st2_surrogate,
     "A \\u escape of a UTF-16 surrogate must be paired; unpaired surrogates are not characters."},
    {Rule::st2_depth,
     "The header nests arrays and objects deeper than 128 levels, the limit of the reference reader's JSON parser."},
    {Rule::st2_not_object,
     "The header must be one JSON object."},
    {Rule::st2_duplicate_key,
     "No two keys of one object may be equal once their escapes are decoded, at any level."},
    {Rule::st2_trailing,
     "Only JSON whitespace (space, tab, CR, LF) may follow the header object; pad with spaces, never NUL."},
    {Rule::st3_not_object,
     "__metadata__, when present, must be an object (null is not accepted)."},
    {Rule::st3_value,
     "Every value of __metadata__ must be a string."},
    {Rule::st4_entry,
     "Every key other than __metadata__ names a tensor whose value is an object with dtype, shape and data_offsets."},
    {Rule::st4_missing_field,
     "A tensor entry needs all of dtype, shape and data_offsets."},
    {Rule::st4_dtype,
     "dtype must be one of the known names, written as a string, case-sensitive."},
    {Rule::st4_shape,
     "shape must be an array of non-negative integers written without fraction or exponent; [] is a scalar."},
    {Rule::st4_data_offsets,
     "data_offsets must be exactly two non-negative integers [begin, end] with begin <= end, relative to the data buffer."},
    {Rule::st4_overflow,
     "The element count or byte size of a tensor overflows 64 bits (a zero dimension makes it zero whatever the others)."},
    {Rule::st4_sub_byte,
     "Sub-byte dtypes (F4, F6_E2M3, F6_E3M2) must fill a whole number of bytes."},
    {Rule::st4_size_mismatch,
     "end - begin must equal the product of the shape times the dtype's size."},
    {Rule::st5_gap,
     "Sorted by (begin, end), the tensors must tile the data buffer: the first begins at 0 and each begins where the previous ended."},
    {Rule::st5_overlap,
     "Sorted by (begin, end), no tensor may begin before the previous one ended."},
    {Rule::st5_truncated,
     "The data buffer (everything after 8 + N) ends before the last tensor does."},
    {Rule::st5_trailing,
     "The data buffer must end where the last tensor ends: no trailing bytes (with no tensors it must be empty)."},
    {Rule::stw_reference_differs,
     "tensorgate parts from the reference reader (the Rust safetensors crate) here on purpose; the reference accepts or rejects this differently."},
    {Rule::stw_unknown_field,
     "A tensor entry holds a field other than dtype, shape and data_offsets."},
    {Rule::stw_name_control,
     "A tensor name holds NUL or another control character."},
    {Rule::stw_large_header,
     "The header is larger than 25,000,000 bytes, which the Hugging Face clients refuse to read."},
    {Rule::stw_empty_metadata,
     "__metadata__ is present but empty."},
    {Rule::stw_padding,
     "The header is padded with whitespace other than spaces."},
    {Rule::stw_reference_version,
     "The oldest version of the reference reader that loads the file, from the dtypes it uses."},
    {Rule::stc1_order,
     "The canonical writer orders tensors by dtype (U64, I64, F64, C64, F32, U32, I32, BF16, F16, U16, I16, F8_E5M2FNUZ, F8_E4M3FNUZ, F8_E8M0, F8_E4M3, F8_E5M2, I8, U8, F6_E3M2, F6_E2M3, F4, BOOL), then by name in UTF-8 byte order, and lays the data out in that order without gaps."},
    {Rule::stc2_header_text,
     "The canonical header is compact JSON, __metadata__ first, then the tensors in canonical order, entry keys dtype, shape, data_offsets, raw UTF-8 and minimal escapes."},
    {Rule::stc3_metadata,
     "The canonical writer omits an empty __metadata__ and writes metadata keys in ascending byte order."},
    {Rule::stc4_padding,
     "The canonical writer pads the header with spaces until N is a multiple of 8, and no more."},
};
constexpr bool help_indexed_by_rule() {
  if (std::size(kHelp) != std::size(kRules)) return false;
  for (std::size_t i = 0; i < std::size(kHelp); ++i)
    if (static_cast<std::size_t>(kHelp[i].rule) != i) return false;
  return true;
}
static_assert(help_indexed_by_rule(), "every rule needs its help text, in enum order");

}  // namespace

const RuleInfo& rule_info(Rule r) { return kRules[static_cast<std::size_t>(r)]; }

std::span<const RuleInfo> all_rules() { return kRules; }

std::string_view rule_help(Rule r) { return kHelp[static_cast<std::size_t>(r)].text; }

}  // namespace tensorgate
