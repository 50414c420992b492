#include "split_sets.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::cli {

void check_given_split_sets(std::vector<CheckedFile>& files, const std::vector<bool>& given, const Limits& limits) {
  namespace fs = std::filesystem;
  struct Group {
    std::vector<GgufFileFacts> facts;
    std::set<std::string> names;  // a file given twice counts once
  };
  std::map<std::pair<std::string, std::string>, Group> groups;  // (directory, prefix), sorted
  for (std::size_t i = 0; i < files.size() && i < given.size(); ++i) {
    if (!given[i] || !files[i].report || files[i].report->format != Format::gguf) continue;
    const fs::path path(files[i].path);
    const std::string name = path.filename().string();
    const auto split = parse_split_name(name);
    if (!split) continue;
    Group& g = groups[{path.parent_path().string(), split->prefix}];
    if (!g.names.insert(name).second) continue;
    g.facts.push_back(gguf_facts_of(name, *files[i].report));
  }
  for (auto& [key, g] : groups) {
    if (g.facts.size() < 2) continue;
    const auto& [dir, prefix] = key;
    DirectoryReport report = check_split_set_files(g.facts, limits);
    const std::uint64_t count = report.summary.split_sets.empty() ? 0 : report.summary.split_sets.front().shard_count;
    char pattern[40];
    std::snprintf(pattern, sizeof pattern, "-*-of-%05llu.gguf", static_cast<unsigned long long>(count));
    CheckedFile entry{(dir.empty() ? "" : dir + "/") + prefix + pattern, std::nullopt, std::nullopt};
    entry.directory = std::move(report);
    files.push_back(std::move(entry));
  }
}

}  // namespace tensorgate::cli
