#include "split_sets.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::cli {

// Per directory: the GGUF files given that are named as shards or carry split metadata (a
// renamed shard is GS.name). Two or more make a check; each prefix is a set of its own.
void check_given_split_sets(std::vector<CheckedFile>& files, const std::vector<bool>& given, const Limits& limits) {
  namespace fs = std::filesystem;
  struct Group {
    std::vector<GgufFileFacts> facts;
    std::set<std::string> names;  // a file given twice counts once
  };
  std::map<std::string, Group> groups;  // by directory, sorted
  for (std::size_t i = 0; i < files.size() && i < given.size(); ++i) {
    if (!given[i] || !files[i].report || files[i].report->format != Format::gguf) continue;
    const fs::path path(files[i].path);
    const std::string name = path.filename().string();
    GgufFileFacts facts = gguf_facts_of(name, *files[i].report);
    const bool split = parse_split_name(name) || (facts.split_count && *facts.split_count > 1) ||
                       (facts.split_no && *facts.split_no > 0);
    if (!split) continue;
    Group& g = groups[path.parent_path().string()];
    if (g.names.insert(name).second) g.facts.push_back(std::move(facts));
  }
  for (auto& [dir, g] : groups) {
    if (g.facts.size() < 2) continue;
    DirectoryReport report = check_split_set_files(g.facts, limits);
    std::string pattern = "*.gguf";
    if (report.summary.split_sets.size() == 1) {
      char count[16];
      std::snprintf(count, sizeof count, "%05llu", static_cast<unsigned long long>(report.summary.split_sets[0].shard_count));
      pattern = report.summary.split_sets[0].prefix + "-*-of-" + count + ".gguf";
    }
    CheckedFile entry{(dir.empty() ? "" : dir + "/") + pattern, std::nullopt, std::nullopt};
    entry.directory = std::move(report);
    files.push_back(std::move(entry));
  }
}

}  // namespace tensorgate::cli
