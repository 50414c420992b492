// The release `tensorgate`'s network half (network.hpp): none. `check` and `diff` give a command
// line that names a URL to tensorgate-remote (network::hand_over) before anything here could be
// called; should a path reach these anyway, the entry gets an error, never a verdict.
#include "network.hpp"

namespace tensorgate::cli::network {
namespace {

const char* const kElsewhere = "URLs are checked by tensorgate-remote, not by this executable (cli/network.hpp)";

}  // namespace

bool in_process() { return false; }

void plan_url(const std::string& entry, std::shared_ptr<UrlPlan> plan) {
  plan->complete({CheckedFile{entry, std::nullopt, kElsewhere}});
}

void gather_diff_input(const std::string& url, bool, MemoryBudget&, const CheckSettings&, std::shared_ptr<void>&,
                       DiffInput& in) {
  in.side.path = url;
  in.error = url + ": " + kElsewhere;
}

std::shared_ptr<remote::TlsClient> load_tls_client(const std::string&, std::string& error) {
  error = kElsewhere;
  return nullptr;
}

}  // namespace tensorgate::cli::network
