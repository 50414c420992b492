#pragma once
// Runs the checks of `tensorgate check` on --jobs worker threads: local files, chat template
// files, model directories, remote files and remote repositories (whose weights files are
// checked in parallel too). Reports come back in the order of the entries, whatever the order
// they finish in; GGUF shards given together are then checked as split sets (split_sets.hpp).
#include <memory>
#include <string>
#include <vector>

#include "file_check.hpp"
#include "progress_line.hpp"
#include "remote_options.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::remote {
class TlsClient;  // tls_client.hpp
}

namespace tensorgate::cli {

struct CheckSettings {
  FormatChoice format = FormatChoice::auto_detect;
  unsigned jobs = 4;
  // false (--no-tensors): tensor inventories are dropped as soon as a file is reported, so a
  // list of a hub's worth of files holds summaries, not tables.
  bool keep_tensors = true;
  // --memory-budget: what one file's check may hold. Each worker has its own budget of this
  // size and checks one file at a time, so a verdict never depends on what runs beside it.
  std::uint64_t memory_budget = kDefaultCliMemoryBudget;
  // The core's bounds, and the policy in force (--policy) in limits.policy: every file, local
  // or remote, is checked with these.
  Limits limits;
  remote::RemoteOptions remote;
  std::shared_ptr<remote::TlsClient> tls;  // loaded once any URL is checked
  ProgressLine* progress = nullptr;
};

std::vector<CheckedFile> check_entries(const std::vector<std::string>& entries, const CheckSettings& settings);

}  // namespace tensorgate::cli
