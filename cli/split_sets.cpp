#include "split_sets.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace tensorgate::cli {

std::optional<GivenShard> given_shard(const CheckedFile& file) {
  const std::string name = std::filesystem::path(file.path).filename().string();
  if (!file.report || file.report->format != Format::gguf) {  // named as a shard: an invalid one
    if (file.path == "-" || !parse_split_name(name)) return std::nullopt;
    return GivenShard{file.path, GgufFileFacts{name, false, {}, {}, {}, {}, {}, {}}};
  }
  // Whether it is a shard, from its name and summary alone: the facts copy every tensor's name
  // and shape (a million allocations for a million tensors), which only a split set needs.
  const auto& g = file.report->summary.get<GgufSummary>();
  const bool split = parse_split_name(name) || (g && g->split_count && *g->split_count > 1) ||
                     (g && g->split_no && *g->split_no > 0);
  if (!split) return std::nullopt;
  return GivenShard{file.path, gguf_facts_of(name, *file.report)};
}

// Per directory: two or more shards make a check; each prefix is a set of its own.
void check_given_split_sets(const std::vector<GivenShard>& shards, const Limits& limits, std::vector<CheckedFile>& out) {
  struct Group {
    std::vector<GgufFileFacts> facts;
    std::set<std::string> names;  // a file given twice counts once
  };
  std::map<std::string, Group> groups;  // by directory, sorted
  for (const GivenShard& s : shards) {
    Group& g = groups[std::filesystem::path(s.path).parent_path().string()];
    if (g.names.insert(s.facts.name).second) g.facts.push_back(s.facts);
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
    out.push_back(std::move(entry));
  }
}

}  // namespace tensorgate::cli
