// One side of `tensorgate diff` by URL (docs/diff.md, docs/remote.md): a remote file, or a remote
// repository (a URL ending in /), checked exactly as `tensorgate check URL` checks it, one file
// after another on the one client; with --values each model file is then read by range requests
// that must keep meeting the same file.
#include "diff_inputs.hpp"
#include "range_source.hpp"
#include "remote_check.hpp"
#include "remote_model_dir.hpp"
#include "url.hpp"

namespace tensorgate::cli {

void gather_remote_diff_input(const std::string& text, bool values, MemoryBudget& budget, remote::HttpClient& client,
                              DiffInput& in) {
  in.side.path = text;
  std::string error;
  const std::optional<remote::Url> url = remote::parse_url(text, error);
  if (!url) return void(in.error = text + ": " + error);
  const std::string origin = url->origin();  // where the user's headers may go
  if (url->is_folder()) {
    RemoteRepository repo;
    repo.path = text;
    repo.folder = *url;
    gather_repository(client, repo, client.options());
    for (std::size_t i = 0; !repo.error && i < repo.weights.size(); ++i)
      check_weights(client, repo, i, FormatChoice::auto_detect, Limits{}, &budget);
    if (repo.md.config_json) in.config_json = *repo.md.config_json;
    finish_repository(repo, in.checked);
    for (const CheckedFile& f : in.checked)
      if (auto why = unusable(f)) return void(in.error = *why);
    if (in.checked.back().directory) in.side.directory = &*in.checked.back().directory;
    if (in.config_json) in.side.config_json = *in.config_json;
  } else {
    in.checked.push_back(check_remote_file(client, text, *url, Limits{}, FormatChoice::auto_detect, nullptr, &budget));
    if (auto why = unusable(in.checked.back())) return void(in.error = *why);
  }
  add_model_files(in, values, [&client, &origin](const CheckedFile& f, std::string& why) -> std::unique_ptr<ByteSource> {
    std::optional<remote::Url> file = remote::parse_url(f.path, why);
    if (!file) return nullptr;
    return std::make_unique<remote::RangeSource>(client, *file, origin);
  });
}

}  // namespace tensorgate::cli
