// The network half in process (network.hpp): what `tensorgate-remote` links. A URL entry's
// checks go through the check runner's plan; a diff side through one session.
#include <atomic>

#include "network.hpp"
#include "remote_check.hpp"
#include "remote_model_dir.hpp"
#include "remote_session.hpp"
#include "tls_client.hpp"
#include "url.hpp"

namespace tensorgate::cli {
namespace {

// The session a worker (or a diff) keeps, made on its first URL.
remote::HttpClient& client_of(std::shared_ptr<void>& session, const CheckSettings& settings) {
  if (!session) session = std::make_shared<remote::RemoteSession>(settings.remote, settings.tls);
  return static_cast<remote::RemoteSession*>(session.get())->client();
}

// The repository's JSON files on this worker, then each weights file as a task of its own; the
// last to finish runs the directory rules.
void plan_repository(const std::string& entry, const remote::Url& folder, const std::shared_ptr<UrlPlan>& plan,
                     NetworkWorker& w) {
  struct Job {
    RemoteRepository repo;
    std::atomic<std::size_t> left{0};
  };
  const CheckSettings& settings = plan->settings();
  auto job = std::make_shared<Job>();
  job->repo.path = entry;
  job->repo.folder = folder;
  gather_repository(client_of(w.session, settings), job->repo, settings.remote);
  if (job->repo.error || job->repo.weights.empty()) {
    std::vector<CheckedFile> out;
    finish_repository(job->repo, out);
    return plan->complete(std::move(out));
  }
  job->left = job->repo.weights.size();
  for (std::size_t i = 0; i < job->repo.weights.size(); ++i) {
    plan->submit([plan, job, i](NetworkWorker& worker) {
      check_weights(client_of(worker.session, plan->settings()), job->repo, i, plan->settings().format,
                    plan->settings().limits, worker.budget);
      if (job->left.fetch_sub(1) != 1) return;
      std::vector<CheckedFile> out;
      finish_repository(job->repo, out);
      plan->complete(std::move(out));
    });
  }
}

}  // namespace

namespace network {

bool in_process() { return true; }

void plan_url(const std::string& entry, std::shared_ptr<UrlPlan> plan) {
  std::string error;
  std::optional<remote::Url> url = remote::parse_url(entry, error);
  if (!url) return plan->complete({CheckedFile{entry, std::nullopt, error}});
  if (url->is_folder()) {
    plan->submit([plan, entry, folder = *url](NetworkWorker& w) { plan_repository(entry, folder, plan, w); });
  } else {
    plan->submit([plan, entry, file = *url](NetworkWorker& w) {
      const CheckSettings& settings = plan->settings();
      plan->complete({check_remote_file(client_of(w.session, settings), entry, file, settings.limits, settings.format, nullptr,
                                        w.budget)});
    });
  }
}

void gather_diff_input(const std::string& url, bool values, MemoryBudget& budget, const CheckSettings& settings,
                       std::shared_ptr<void>& session, DiffInput& in) {
  gather_remote_diff_input(url, values, budget, client_of(session, settings), in);
}

std::shared_ptr<remote::TlsClient> load_tls_client(const std::string& ca_file, std::string& error) {
  return remote::load_tls_client(ca_file, error);
}

}  // namespace network
}  // namespace tensorgate::cli
