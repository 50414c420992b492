#pragma once
// One side of `tensorgate diff` from disk: a file, or a model directory's model files, each
// validated as `tensorgate check` validates it, with config.json and (for --values) the files
// opened for reading; or by URL (diff_remote.cpp): a remote file or repository checked as
// `tensorgate check URL` checks it, its bytes read by range requests.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "http_client.hpp"
#include "tensorgate/audit.hpp"
#include "tensorgate/diff.hpp"
#include "tensorgate/memory_budget.hpp"

namespace tensorgate::cli {

struct DiffInput {
  std::vector<CheckedFile> checked;  // the model's files (and the directory's own report, last)
  std::optional<std::string> config_json;
  std::vector<std::unique_ptr<ByteSource>> open;
  DiffSide side;                     // points into the members above: do not copy
  std::optional<std::string> error;  // the input cannot be used (exit status 2)
};

// Fills `in` for `path` (a file, a directory, or an http(s) URL, read through the network half
// on `session`: network.hpp); with `values`, opens every model file for reading.
struct CheckSettings;
void gather_diff_input(const std::string& path, bool values, MemoryBudget& budget, const CheckSettings& settings,
                       std::shared_ptr<void>& session, DiffInput& in);

// The model's files among in.checked (those the directory's summary names, else every weights
// file), each opened by `open` when `values`: fills in.side.files or sets in.error.
using OpenModelFile = std::function<std::unique_ptr<ByteSource>(const CheckedFile&, std::string& error)>;
void add_model_files(DiffInput& in, bool values, const OpenModelFile& open);

// A URL side (diff_remote.cpp).
void gather_remote_diff_input(const std::string& url, bool values, MemoryBudget& budget, remote::HttpClient& client,
                              DiffInput& in);

// Why a checked file cannot be diffed: it could not be read, or its check was aborted.
std::optional<std::string> unusable(const CheckedFile& f);

}  // namespace tensorgate::cli
