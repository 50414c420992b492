#include "remote_model_dir.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <set>

#include "fetch_small.hpp"
#include "model_dir_check.hpp"
#include "remote_check.hpp"

namespace tensorgate::cli {
namespace {

constexpr std::string_view kConfig = "config.json", kIndex = "model.safetensors.index.json",
                           kSingle = "model.safetensors", kBinIndex = "pytorch_model.bin.index.json",
                           kBinSingle = "pytorch_model.bin", kTokenizer = "tokenizer.json";

// A name that can only mean a file of this folder: never a path, never "." or "..", printable,
// with the index's own suffix (".safetensors" shards in model.safetensors.index.json, ".bin"
// in pytorch_model.bin.index.json).
bool plain_weights_name(std::string_view name, std::string_view suffix) {
  if (name.empty() || name.size() > 255 || name == "." || name == ".." || !name.ends_with(suffix)) return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return c == '/' || c == '\\' || b < 0x20 || b == 0x7f;
  });
}

// The distinct plain shard names of the index's weight_map, in name order, at most `cap` + 1 (the
// caller refuses more). An index that does not parse names none: the directory rules report
// what is wrong with it.
std::set<std::string> shard_names(const std::string& text, std::string_view suffix, const Limits& limits,
                                  std::size_t cap) {
  boost::json::parse_options options;
  options.max_depth = limits.directory.max_json_depth;
  boost::system::error_code ec;
  const boost::json::value index = boost::json::parse(text, ec, {}, options);
  std::set<std::string> names;  // ordered: no hash for a hostile index to collide
  const boost::json::object* root = ec ? nullptr : index.if_object();
  const boost::json::value* map = root ? root->if_contains("weight_map") : nullptr;
  if (map && map->is_object()) {
    for (const auto& entry : map->get_object()) {
      const boost::json::string* name = entry.value().if_string();
      if (name && plain_weights_name(*name, suffix)) names.emplace(*name);
      if (names.size() > cap) break;
    }
  }
  return names;
}

std::string report_path(const RemoteRepository& repo, const std::string& name) {
  if (repo.path.find('?') != std::string::npos) return remote::child_url(repo.folder, name).text;
  return repo.path + remote::encode_segment(name);
}

}  // namespace

// Both kinds of weights are looked for, whichever the other says: a hub repository often holds
// model.safetensors beside pytorch_model.bin, a loader may take either, and the pickle is the
// one that runs code on load. A name no index gives is only probed: its 404 is absence.
void gather_repository(remote::HttpClient& client, RemoteRepository& repo, const remote::RemoteOptions& options) {
  const Limits limits;
  const std::string origin = repo.folder.origin();
  const std::uint64_t start = client.bytes_received();
  auto fetch = [&](std::string_view name) {
    return remote::fetch_small(client, remote::child_url(repo.folder, name), origin, limits.directory.max_json_bytes);
  };
  const remote::SmallFile config = fetch(kConfig);
  const remote::SmallFile index = config.error ? config : fetch(kIndex);
  const remote::SmallFile bin_index = index.error ? index : fetch(kBinIndex);
  const remote::SmallFile tokenizer =
      bin_index.error ? bin_index : remote::probe(client, remote::child_url(repo.folder, kTokenizer), origin);
  repo.transferred = client.bytes_received() - start;
  for (const auto& [file, name] : {std::pair{&config, kConfig}, {&index, kIndex}, {&bin_index, kBinIndex}, {&tokenizer, kTokenizer}}) {
    if (file->error) {
      repo.error = std::string(name) + ": " + *file->error;
      return;
    }
  }
  ModelDirectory& md = repo.md;
  md.config_json = config.text;
  md.index_json = index.text;
  md.bin_index_json = bin_index.text;
  md.has_tokenizer_json = !tokenizer.absent;
  if (config.text) md.file_names.emplace_back(kConfig);
  if (index.text) md.file_names.emplace_back(kIndex);
  if (bin_index.text) md.file_names.emplace_back(kBinIndex);
  if (md.has_tokenizer_json) md.file_names.emplace_back(kTokenizer);
  std::set<std::string> weights = index.text ? shard_names(*index.text, ".safetensors", limits, options.max_shards)
                                             : std::set<std::string>{std::string(kSingle)};
  weights.merge(bin_index.text ? shard_names(*bin_index.text, ".bin", limits, options.max_shards)
                                : std::set<std::string>{std::string(kBinSingle)});
  if (weights.size() > options.max_shards) {
    repo.error = "the indexes name more than " + std::to_string(options.max_shards) + " shards (a remote check fetches each)";
    return;
  }
  repo.weights.assign(weights.begin(), weights.end());
  repo.checked.resize(repo.weights.size());
  repo.found.assign(repo.weights.size(), true);
}

void check_weights(remote::HttpClient& client, RemoteRepository& repo, std::size_t i, FormatChoice format,
                   const Limits& limits, MemoryBudget* budget) {
  const remote::Url url = remote::child_url(repo.folder, repo.weights[i]);
  bool not_found = false;
  repo.checked[i] = check_remote_file(client, report_path(repo, repo.weights[i]), url, limits, format, &not_found, budget);
  repo.found[i] = !not_found;
}

void finish_repository(RemoteRepository& repo, std::vector<CheckedFile>& out) {
  ModelDirectory& md = repo.md;
  const bool weights_found = std::find(repo.found.begin(), repo.found.end(), true) != repo.found.end();
  const bool nothing = !md.config_json && !md.index_json && !md.bin_index_json && !weights_found;
  if (!repo.error && nothing)
    repo.error = "not a model repository: no config.json, model.safetensors.index.json, model.safetensors, "
                 "pytorch_model.bin.index.json or pytorch_model.bin (HTTP 404)";
  if (repo.error) {
    CheckedFile failed{repo.path, std::nullopt, *repo.error};
    failed.bytes_transferred = repo.transferred;
    out.push_back(std::move(failed));
    return;
  }
  for (std::size_t i = 0; i < repo.weights.size(); ++i) {
    if (!repo.found[i]) continue;  // not there: the directory rules say so
    md.file_names.push_back(repo.weights[i]);
    add_weights(md, repo.weights[i], repo.checked[i]);
    out.push_back(std::move(repo.checked[i]));
  }
  std::sort(md.file_names.begin(), md.file_names.end());
  CheckedFile directory{repo.path, std::nullopt, std::nullopt, tensorgate::check_model_directory(md, Limits{})};
  directory.bytes_transferred = repo.transferred;
  out.push_back(std::move(directory));
}

}  // namespace tensorgate::cli
