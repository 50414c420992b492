#pragma once
// Checks across the files of a model directory (MD, SH, AR, TL), from the per-file reports:
// tensor data is never read again. The faces gather the inputs: `tensorgate check DIR` lists
// and validates the directory's files; the service's /v1/check-model receives the config, the
// index and the reports /v1/validate gave.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report.hpp"

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
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<InventoryTensor> tensors;
  std::optional<std::string> metadata_value(std::string_view key) const;
};

FileInventory inventory_of(std::string name, const Report& report);
FileInventory inventory_of(std::string name, bool valid, const TensorTable& table);

struct ModelDirectory {
  std::optional<std::string> config_json;  // the text of config.json, when present
  std::optional<std::string> index_json;   // the text of model.safetensors.index.json
  bool has_tokenizer_json = false;
  std::vector<std::string> file_names;     // every regular file in the directory
  std::vector<FileInventory> weights;      // every *.safetensors file, validated
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
};

struct DirectoryReport {
  bool valid = false;
  std::vector<Finding> findings;
  std::uint64_t findings_dropped = 0;
  DirectorySummary summary;
};

// Bounded by Limits::directory and Limits::max_findings.
DirectoryReport check_model_directory(const ModelDirectory& dir, const Limits& limits = {});

// The service's POST /v1/check-model: {"config": {...} or null, "index": {...} or null,
// "files": {"<file name>": <the report /v1/validate gave>}, "other_files": ["tokenizer.json",
// ...]}. A request that is not of that form gets `error`; otherwise `report`.
struct CheckModelResult {
  std::optional<DirectoryReport> report;
  std::string error;
  bool budget_refused = false;  // `budget` could not hold the request's documents: no verdict
};
// With a budget, the parsed request is charged to it while the check runs.
CheckModelResult check_model_request(std::string_view request_json, const Limits& limits = {},
                                     MemoryBudget* budget = nullptr);

// Whether a directory listing makes a model directory: config.json, model.safetensors or
// model.safetensors.index.json.
bool is_model_directory(const std::vector<std::string>& file_names);

}  // namespace tensorgate
