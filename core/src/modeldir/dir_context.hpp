#pragma once
// What the directory checks share: the inputs, the parsed config, and where findings go.
#include <boost/json/object.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/finding_list.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

class DirContext {
 public:
  DirContext(const ModelDirectory& dir, const Limits& limits)
      : dir_(dir),
        limits_(limits.directory),
        savedmodel_limits_(limits.savedmodel),
        keras_limits_(limits.keras),
        policy_(limits.policy),
        max_findings_(limits.max_findings),
        findings_(limits.max_findings) {}

  const ModelDirectory& dir() const { return dir_; }
  const DirectoryLimits& limits() const { return limits_; }
  const SavedModelLimits& savedmodel_limits() const { return savedmodel_limits_; }
  const KerasLimits& keras_limits() const { return keras_limits_; }
  const std::shared_ptr<const Policy>& policy() const { return policy_; }
  std::uint32_t max_findings() const { return max_findings_; }
  const FileInventory* weights_file(std::string_view name) const;
  bool has_file(std::string_view name) const;

  // Inside a directory a rule's default severity holds (errors, but for the warnings and infos
  // the catalogue says), capped at Limits::max_findings.
  void add(Rule rule, std::string message, std::optional<std::string_view> tensor = std::nullopt) {
    findings_.add(rule, std::move(message), std::nullopt, tensor);
  }
  void add(Finding f) { findings_.add(std::move(f)); }
  FindingList& findings() { return findings_; }

  std::optional<boost::json::object> config;
  std::vector<const FileInventory*> model_files;  // the files that make up the model
  DirectorySummary summary;

 private:
  const ModelDirectory& dir_;
  DirectoryLimits limits_;
  SavedModelLimits savedmodel_limits_;
  KerasLimits keras_limits_;
  std::shared_ptr<const Policy> policy_;
  std::uint32_t max_findings_;
  FindingList findings_;
};

// A sharded checkpoint: its index and the kind of file its shards are.
struct ShardSet {
  std::string_view index_name;   // "model.safetensors.index.json", "pytorch_model.bin.index.json"
  const std::string* index_json;
  std::string_view extension;    // ".safetensors", ".bin"
  std::string_view kind;         // for messages: "safetensors file", "torch checkpoint"
  bool torch;                    // shards are pickles or zips, not safetensors
};
// SH: the index against the shards. Sets model_files to the shards it names that exist.
void check_shards(DirContext& ctx, const ShardSet& set);

// dir_weights.cpp: which files make the model (MD.no-weights, MD.invalid-file, the shard set),
// and whether the directory needs a config.json (GGUF-only and torch-checkpoint-only
// directories do not).
void check_weights(DirContext& ctx);
bool needs_config(const ModelDirectory& dir);
bool is_torch_format(Format f);
// A CTranslate2 model's directory: model.bin read as one, no safetensors weights (dir_weights.cpp).
bool is_ctranslate2_directory(const DirContext& ctx);

// kinds_inventory.cpp: a torch checkpoint's state dict (or a GGUF, without tensors) as an inventory.
FileInventory checkpoint_inventory(std::string name, const Report& report);
// GS: the split GGUF sets among the directory's GGUF files; adds their summaries.
void check_split_sets(DirContext& ctx);
// A file named <prefix>-NNNNN-of-MMMMM.gguf (NNNNN from 1 to MMMMM) belongs to a split set: GS
// judges it, an invalid one (whatever its content) too (GS.invalid-shard, not MD.invalid-file).
bool names_a_shard(std::string_view file_name);
// CT: the chat template files' findings, named by file; adds their templates to the summary.
void check_chat_templates(DirContext& ctx);
// AR: the tensor inventory against config.json.
void check_architecture(DirContext& ctx);
void check_savedmodel_directory(DirContext& ctx);  // savedmodel_dir.cpp
// keras_dir.cpp: a Keras directory (a model saved unzipped: config.json of Keras's shape), its
// config judged as a .keras archive's (KR) and its classes in the summary; its weights file.
bool is_keras_config(const boost::json::object& config);
bool is_keras_directory(const DirContext& ctx);
const FileInventory* keras_weights(const DirContext& ctx);
void check_keras_directory(DirContext& ctx);
// TL and MD's tokenizer rule, where config.json declares a tl_arch.
void check_tinyllm_directory(DirContext& ctx);

// int4-g<group>-sym -> group; nothing when malformed.
std::optional<std::uint64_t> int4_group(std::string_view quant);

}  // namespace tensorgate::detail
