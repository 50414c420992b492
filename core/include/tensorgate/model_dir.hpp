#pragma once
// Checks across the files of a model directory (MD, SH, AR, TL, GS, CT), from the per-file reports:
// tensor data is never read again. The faces gather the inputs: `tensorgate check DIR` lists
// and validates the directory's files; the service's /v1/check-model receives the config, the
// index and the reports /v1/validate gave.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorgate/chat_template.hpp"
#include "tensorgate/finding.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/keras.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate {

// One tensor of a file, as the cross-file checks need it.
struct InventoryTensor {
  std::string name;
  std::string dtype;  // "BF16", ...
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;
};

// What one weights file of the directory holds.
struct FileInventory {
  std::string name;  // the file name inside the directory
  bool valid = false;
  Format format = Format::safetensors;  // safetensors, or a torch checkpoint (pickle, zip), or gguf
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<InventoryTensor> tensors;
  std::optional<std::string> metadata_value(std::string_view key) const;
};

// From a file's report: a safetensors inventory, or the state dict a torch checkpoint's pickle
// rebuilds (a pickle, or a PyTorch archive's data.pkl).
FileInventory inventory_of(std::string name, const Report& report);
FileInventory inventory_of(std::string name, bool valid, const TensorTable& table);

// What the split-set checks (GS) need of one GGUF file.
struct GgufFileFacts {
  std::string name;   // the file name inside the directory
  bool valid = false;  // its own report's verdict (and its tensor infos were read)
  std::optional<std::uint64_t> split_no, split_count, split_tensors_count;
  std::optional<std::string> architecture;
  std::optional<std::uint64_t> block_count;
  std::vector<InventoryTensor> tensors;  // dtype: the ggml type's name
};
GgufFileFacts gguf_facts_of(std::string name, const Report& report);

// "<prefix>-NNNNN-of-MMMMM.gguf" (llama.cpp's gguf-split names, five digits each).
struct SplitName {
  std::string prefix;
  std::uint64_t number = 0, count = 0;
};
std::optional<SplitName> parse_split_name(std::string_view file_name);

// A file of the directory that holds no weights (README, licence, JSON configs, tokenizer
// files): listed in the summary, never silently skipped.
struct OtherFile {
  std::string name;
  Format format = Format::unknown;  // what its content is (unknown or empty)
  std::string looks_like;
};

struct ModelDirectory {
  std::optional<std::string> config_json;  // the text of config.json, when present
  std::optional<std::string> index_json;   // the text of model.safetensors.index.json
  std::optional<std::string> bin_index_json;  // the text of pytorch_model.bin.index.json
  bool has_tokenizer_json = false;
  std::vector<std::string> file_names;     // every regular file in the directory
  std::vector<FileInventory> weights;      // every model file (safetensors, pickle, zip, GGUF, ONNX), validated
                                           // (from /v1/check-model also the onnx/ folder's, "onnx/model.onnx")
  std::vector<GgufFileFacts> gguf;         // every GGUF file, validated, for the split-set checks
  std::vector<ChatTemplateFileReport> chat_templates;  // the files chat_template_file_kind() names
  std::vector<OtherFile> other_files;      // the files that are no weights (nor chat templates)
  // The ONNX models of its onnx/ folder ("onnx/model.onnx", ...), each checked as a file of its
  // own: transformers.js keeps a model's weights there, beside the config at the top.
  std::vector<std::string> onnx_folder_models;
  // A TensorFlow SavedModel directory (it holds saved_model.pb): its variables/ and assets/.
  std::optional<SavedModelVariables> savedmodel;
  // Findings of pairs of files checked together before the directory (/v1/check-model's
  // OpenVINO xml and .bin reports; the CLI's are in the xml's own report): the directory's.
  std::vector<Finding> pair_findings;
};

// A split GGUF set as one model: its totals over the shards present.
struct SplitSetSummary {
  std::string prefix;
  std::uint64_t shard_count = 0;   // the MMMMM of its first shard's name
  std::vector<std::string> files;  // the shards present, in order
  std::optional<std::string> architecture;
  std::optional<std::uint64_t> layers;  // the first shard's <arch>.block_count
  std::vector<std::pair<std::string, std::uint64_t>> parameters_by_type;  // sorted by type name
  std::uint64_t tensors = 0, parameters = 0, bytes = 0;
};

struct DirectoryTemplate {
  std::string file;
  ChatTemplateInfo info;
};

// In the shape of the hub's safetensors metadata: parameters by dtype, total, sharded, weight
// map size.
struct DirectorySummary {
  std::optional<std::string> architecture;
  std::optional<std::uint64_t> layers;
  std::vector<std::pair<std::string, std::uint64_t>> parameters_by_dtype;  // sorted by dtype name
  std::uint64_t parameters = 0;
  std::uint64_t bytes = 0;
  bool sharded = false;
  std::uint64_t shard_count = 0;
  std::uint64_t weight_map_size = 0;
  std::vector<std::string> files;
  std::string weights_format;          // of the files that make the model: "safetensors", "pickle", "zip", "gguf", "onnx", "savedmodel" or ""
  std::vector<OtherFile> other_files;  // the files that are no weights, by name
  std::vector<SplitSetSummary> split_sets;
  std::vector<DirectoryTemplate> chat_templates;
  std::optional<SavedModelDirectorySummary> savedmodel;  // a SavedModel directory's variables and assets
  std::optional<KerasSummary> keras;                     // a Keras directory's config.json
};

struct DirectoryReport {
  bool valid = false;
  std::vector<Finding> findings;
  std::uint64_t findings_dropped = 0;
  DirectorySummary summary;
};

// Bounded by Limits::directory and Limits::max_findings. A directory of GGUF files needs no
// config.json and no safetensors (MD and AR apply where their inputs exist); with one split set
// and no safetensors model, the summary's totals are the set's.
DirectoryReport check_model_directory(const ModelDirectory& dir, const Limits& limits = {});

// GGUF files given together (the CLI's list of files): the GS rules and the summary of each
// split set among them, nothing else.
DirectoryReport check_split_set_files(const std::vector<GgufFileFacts>& files, const Limits& limits = {});

// The service's POST /v1/check-model: {"config": {...} or null, "index": {...} or null,
// "files": {"<file name>": <the report /v1/validate gave>} (safetensors and GGUF),
// "chat_templates": {"<file name>": "<the file's text>"} (the files chat_template_file_kind()
// names), "other_files": ["tokenizer.json", ...]}. A request that is not of that form gets
// `error`; otherwise `report`.
struct CheckModelResult {
  std::optional<DirectoryReport> report;
  std::string error;
  bool budget_refused = false;  // `budget` could not hold the request's documents: no verdict
};
// With a budget, the parsed request is charged to it while the check runs.
CheckModelResult check_model_request(std::string_view request_json, const Limits& limits = {},
                                     MemoryBudget* budget = nullptr);

// Whether a directory listing makes a model directory: config.json, model.safetensors,
// model.safetensors.index.json, pytorch_model.bin, pytorch_model.bin.index.json, or a shard of
// a split GGUF set.
bool is_model_directory(const std::vector<std::string>& file_names);
// The same with what each file's content is: also a directory whose model files are all GGUF,
// or all torch checkpoints (pickles and zips), needs no config.json to be one.
struct ListedFile {
  std::string name;
  Format format = Format::unknown;
};
bool is_model_directory(const std::vector<ListedFile>& files);

// An OpenVINO model's weights: `name` ends in .bin and the file of its stem with the extension
// .xml is among `files` and is OpenVINO IR. The .bin is its model's (that model's report checks
// it), neither a file of its own nor one that holds no weights.
bool is_openvino_weights(std::string_view name, const std::vector<ListedFile>& files);

}  // namespace tensorgate
