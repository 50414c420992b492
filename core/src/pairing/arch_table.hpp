#pragma once
// The architecture table: for each architecture the audit knows, how a source tensor's name
// becomes llama.cpp's GGUF name, which rows the converter permutes, which tensors it generates,
// and which metadata keys mirror which config.json fields. llama is the first entry; another
// architecture is one more entry in arch_table.cpp (its tables and a row in kArchitectures).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tensorgate::detail::pairing {

// How the converter reorders a tensor's rows.
enum class RowOrder : std::uint8_t {
  as_is,
  rope_q,  // llama.cpp's permute with n_head = num_attention_heads
  rope_k,  // ... with n_head = num_key_value_heads
};

// One source name stem (the name without .weight or .bias) and its GGUF stem.
struct NameRule {
  std::string_view source;
  std::string_view gguf;
  RowOrder order = RowOrder::as_is;
};

// A config.json field a metadata key mirrors.
enum class ConfigField : std::uint8_t {
  layers, context, hidden, intermediate, heads, kv_heads, rope_theta, rms_eps, head_dim, vocab,
};
// What llama.cpp assumes when the key is absent.
enum class KeyDefault : std::uint8_t { required, heads, ten_thousand, hidden_over_heads, optional };

struct MetadataRule {
  std::string_view key;  // after "<arch>."
  ConfigField field;
  bool is_float;         // stored as f32: compared with the config's value rounded to f32
  KeyDefault absent;
};

enum class Generated : std::uint8_t { llama3_rope_freqs };
struct GeneratedRule {
  std::string_view name;  // the GGUF name
  Generated kind;
};

struct ArchSpec {
  std::string_view model_type;    // config.json model_type
  std::string_view class_name;    // config.json architectures[0]
  std::string_view gguf_arch;     // general.architecture
  std::string_view layer_prefix;  // source: "model.layers."
  std::string_view gguf_layer_prefix;  // "blk."
  std::span<const NameRule> globals;   // stems outside the layers
  std::span<const NameRule> layer;     // stems after "<layer_prefix>N."
  std::span<const GeneratedRule> generated;
  std::span<const MetadataRule> metadata;
};

// The architecture config.json names (model_type, else architectures[0]), or nothing.
const ArchSpec* find_architecture(std::string_view model_type, std::string_view class_name);
// The architecture a GGUF's general.architecture names, or nothing.
const ArchSpec* find_gguf_architecture(std::string_view gguf_arch);

struct MappedName {
  std::string gguf;
  RowOrder order;
};
// llama.cpp's name for a source tensor, or nothing when the table does not map it.
std::optional<MappedName> map_name(const ArchSpec& arch, std::string_view source);

}  // namespace tensorgate::detail::pairing
