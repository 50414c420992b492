#pragma once
// The rule catalogue: one id per check, written FAMILY.detail (docs/rules.md, spec/rules.md).
// Like simdjson's error codes, `Rule` is one enum with a parallel table of static descriptions;
// a Finding carries the enum, and everything a report prints comes from the table.
#include <cstdint>
#include <span>
#include <string_view>

#include "tensorgate/severity.hpp"

namespace tensorgate {

// X(enumerator, "id", severity, "title")
#define TENSORGATE_SAFETENSORS_RULES(X)                                                            \
  X(st1_too_short, "ST1.too-short", error, "file shorter than the 8-byte header length")          \
  X(st1_header_too_large, "ST1.header-too-large", error, "header length above 100,000,000")       \
  X(st1_truncated_header, "ST1.truncated-header", error, "file ends inside the header")           \
  X(st2_bom, "ST2.bom", error, "header starts with a byte-order mark")                              \
  X(st2_syntax, "ST2.syntax", error, "header is not valid JSON")                                     \
  X(st2_utf8, "ST2.utf8", error, "header is not valid UTF-8")                                       \
  X(st2_surrogate, "ST2.surrogate", error, "unpaired UTF-16 surrogate escape")                      \
  X(st2_depth, "ST2.depth", error, "JSON nesting deeper than the reference reader accepts")         \
  X(st2_not_object, "ST2.not-object", error, "header is not one JSON object")                       \
  X(st2_duplicate_key, "ST2.duplicate-key", error, "duplicate key after unescaping")                \
  X(st2_trailing, "ST2.trailing", error, "something other than JSON whitespace follows the object") \
  X(st3_not_object, "ST3.not-object", error, "__metadata__ is not an object")                       \
  X(st3_value, "ST3.value", error, "__metadata__ value is not a string")                             \
  X(st4_entry, "ST4.entry", error, "tensor entry is not an object")                                 \
  X(st4_missing_field, "ST4.missing-field", error, "tensor entry lacks dtype, shape or data_offsets") \
  X(st4_dtype, "ST4.dtype", error, "unknown or malformed dtype")                                    \
  X(st4_shape, "ST4.shape", error, "shape is not an array of non-negative integers")                \
  X(st4_data_offsets, "ST4.data-offsets", error, "data_offsets is not [begin, end] with begin <= end") \
  X(st4_overflow, "ST4.overflow", error, "tensor size overflows 64 bits")                           \
  X(st4_sub_byte, "ST4.sub-byte", error, "sub-byte tensor is not a whole number of bytes")          \
  X(st4_size_mismatch, "ST4.size-mismatch", error, "end - begin differs from shape times dtype size") \
  X(st5_gap, "ST5.gap", error, "a gap in the data buffer")                                          \
  X(st5_overlap, "ST5.overlap", error, "tensors overlap in the data buffer")                        \
  X(st5_truncated, "ST5.truncated", error, "data buffer shorter than the tensors need")             \
  X(st5_trailing, "ST5.trailing-bytes", error, "bytes after the last tensor")                       \
  X(stw_reference_differs, "STW.reference-differs", warning, "the reference reader decides otherwise") \
  X(stw_unknown_field, "STW.unknown-field", warning, "unknown field in a tensor entry")             \
  X(stw_name_control, "STW.name-control", warning, "control character in a tensor name")           \
  X(stw_large_header, "STW.large-header", warning, "header above the hub clients' 25,000,000 bytes") \
  X(stw_empty_metadata, "STW.empty-metadata", warning, "empty __metadata__ map")                    \
  X(stw_padding, "STW.padding", warning, "header padded with something other than spaces")          \
  X(stw_reference_version, "STW.reference-version", info, "oldest reference version that loads the file") \
  X(stc1_order, "STC1.tensor-order", info, "data not laid out in canonical tensor order")          \
  X(stc2_header_text, "STC2.header-text", info, "header text is not the canonical JSON")            \
  X(stc3_metadata, "STC3.metadata", info, "metadata empty or keys not in byte order")               \
  X(stc4_padding, "STC4.padding", info, "padding is not the minimal run of spaces")

enum class Rule : std::uint16_t {
#define TENSORGATE_RULE_ENUM(e, id, sev, title) e,
  TENSORGATE_SAFETENSORS_RULES(TENSORGATE_RULE_ENUM)
#undef TENSORGATE_RULE_ENUM
};

struct RuleInfo {
  Rule rule;
  std::string_view id;      // "ST4.dtype"
  std::string_view family;  // "ST4": what tests and gates key on
  Severity severity;        // the default severity
  std::string_view title;   // one line, no trailing period
};

const RuleInfo& rule_info(Rule r);
std::span<const RuleInfo> all_rules();
// The longer explanation (docs/rules.md has the same text), for SARIF fullDescription.
std::string_view rule_help(Rule r);

}  // namespace tensorgate
