#pragma once
// Metadata and config.json, key by key.
//
// Metadata is each side's files' own: safetensors __metadata__ (a key the model's files give
// differently is read from the first file that has it), GGUF key-value pairs as far as the
// summary keeps them (the scalar pairs of Limits::gguf.max_scalars_kept, the number of tokens
// in tokenizer.ggml.tokens, whether there is a chat template). config.json is flattened to
// dotted keys ("rope_scaling.factor"), arrays compared whole; when only one side has a
// config.json, that is one change of the key "config.json".
#include <optional>
#include <string>
#include <vector>

#include "side.hpp"

namespace tensorgate::detail::diff {

// `v`, or its first `max` bytes (on a UTF-8 boundary) with its length and SHA-256: a report
// never grows with one hostile name or value.
std::string cut_text(std::string v, std::uint64_t max);

// Metadata changes, then config changes, each sorted by key. Values are cut at `max_value_bytes`.
std::vector<KeyChange> key_changes(const DiffSide& old_side, const DiffSide& new_side, const Limits& limits);

}  // namespace tensorgate::detail::diff
