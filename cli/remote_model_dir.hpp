#pragma once
// A model repository by URL (docs/remote.md): a folder URL (ending in "/") holding config.json
// and model.safetensors or model.safetensors.index.json and its shards, and pytorch_model.bin
// or pytorch_model.bin.index.json and its shards (both kinds are looked for). There is no
// listing over HTTP: the small JSON files are fetched by their fixed names, the shards are the
// plain file names the indexes give (a name with a separator, "..", or a control character is
// never fetched; the SH rules report it), and each is checked remotely. Then the directory
// rules run across them, as for a local model directory.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "http_client.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

struct RemoteRepository {
  std::string path;  // the URL as given
  remote::Url folder;
  ModelDirectory md;                 // config and index text, the names found
  std::vector<std::string> weights;  // the weights files to check, in name order
  std::vector<CheckedFile> checked;  // one per weights file, filled by check_weights()
  std::vector<bool> found;           // false: the server said 404 (the file is not there)
  std::uint64_t transferred = 0;     // the JSON files and probes
  std::optional<std::string> error;  // the repository cannot be checked
};

// Fetches config.json and the index, probes tokenizer.json, and lists the weights to check.
void gather_repository(remote::HttpClient& client, RemoteRepository& repo, const remote::RemoteOptions& options);

// Checks weights file `i` into repo.checked[i] (workers may run these in parallel).
void check_weights(remote::HttpClient& client, RemoteRepository& repo, std::size_t i, FormatChoice format,
                   const Limits& limits, MemoryBudget* budget = nullptr);

// The weights files found, then the directory's own entry (or the repository's error).
void finish_repository(RemoteRepository& repo, std::vector<CheckedFile>& out);

}  // namespace tensorgate::cli
