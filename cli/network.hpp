#pragma once
// The CLI's network half behind one seam: checking and diffing http(s) URLs (docs/remote.md).
//
// Two executables share every other part of the CLI. `tensorgate-remote` links
// network_remote.cpp, which does the work here in process (cli/remote/: Asio, Beast, Boost.URL,
// the TLS helper). The release `tensorgate` links network_absent.cpp instead, so none of that
// code or its relocated data is in the process a local check starts: `check` and `diff` hand a
// command line that names a URL to tensorgate-remote (network::hand_over) before any of these is
// called. That was ~0.07 of /bin/true's time in a small file's check (bench/README.md).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check_runner.hpp"
#include "diff_inputs.hpp"

namespace tensorgate::cli {

// What a worker thread lends a network task: its memory budget, and the place where its remote
// session lives (made by the network half on the thread's first URL, kept for the next).
struct NetworkWorker {
  MemoryBudget* budget;
  std::shared_ptr<void>& session;
};

// How the check runner (check_runner.cpp) lets the network half plan one URL entry's checks.
class UrlPlan {
 public:
  using Task = std::function<void(NetworkWorker&)>;
  virtual ~UrlPlan() = default;
  virtual const CheckSettings& settings() const = 0;
  // Runs `task` on a worker thread, as soon as one is free.
  virtual void submit(Task task) = 0;
  // The entry's reports, in order; called once, from any thread.
  virtual void complete(std::vector<CheckedFile> files) = 0;
};

namespace network {

// Whether this executable checks URLs itself (network_remote.cpp or network_absent.cpp).
bool in_process();

// Whether any of `entries` is a URL.
bool names_a_url(const std::vector<std::string>& entries);

// When `needed` (the command line names a URL, or something that may hold one) and this
// executable has no network half: tensorgate-remote takes the process over with `command` and
// `args` (helper_executables.hpp). Nothing when this process goes on; the exit status when the
// hand-over failed (said on standard error).
std::optional<int> hand_over(const char* command, const std::vector<std::string>& args, bool needed);

// `entry` (a URL) checked through `plan`: a file as one task; a repository (a URL ending in /)
// as its JSON files, then a task per weights file, then the directory rules.
void plan_url(const std::string& entry, std::shared_ptr<UrlPlan> plan);

// One side of `tensorgate diff` from a URL (diff_inputs.hpp), on `session` (see NetworkWorker).
void gather_diff_input(const std::string& url, bool values, MemoryBudget& budget, const CheckSettings& settings,
                       std::shared_ptr<void>& session, DiffInput& in);

// The TLS client for https (remote/tls_client.hpp), with --ca-file's certificates; nothing and
// `error` when they do not load.
std::shared_ptr<remote::TlsClient> load_tls_client(const std::string& ca_file, std::string& error);

}  // namespace network
}  // namespace tensorgate::cli
