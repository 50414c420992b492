#include "rename_pattern.hpp"

#include <algorithm>
#include <string_view>

#include "common/seeded_hash.hpp"

namespace tensorgate::detail::diff {
namespace {

struct Entry {
  std::uint64_t key;
  std::uint32_t tensor;  // index in the side's tensor list
  std::uint32_t side;    // 0 old, 1 new
  friend bool operator<(const Entry& a, const Entry& b) {
    return a.key != b.key ? a.key < b.key : a.side != b.side ? a.side < b.side : a.tensor < b.tensor;
  }
};

// Where each dot-separated component starts; nothing when the name is too long for patterns.
std::optional<std::vector<std::uint32_t>> components(std::string_view name, const DiffLimits& limits) {
  if (name.size() > limits.max_pattern_name_bytes) return std::nullopt;
  std::vector<std::uint32_t> starts{0};
  for (std::size_t i = 0; i < name.size(); ++i)
    if (name[i] == '.') starts.push_back(static_cast<std::uint32_t>(i + 1));
  if (starts.size() > limits.max_pattern_components) return std::nullopt;
  return starts;
}

std::uint64_t group_hash(const SideTensor& t) {
  std::string g(common_dtype(t));
  for (const std::uint64_t d : t.info.shape) g += "," + std::to_string(d);
  return seeded_hash(g);
}

void add_keys(const SideTensor& t, std::uint32_t index, std::uint32_t side, const DiffLimits& limits,
              std::vector<Entry>& out) {
  const std::string_view name = t.info.name;
  const auto starts = components(name, limits);
  if (!starts) return;
  const std::uint64_t group = group_hash(t) | 1;
  const std::size_t n = starts->size();
  std::string holed;
  for (std::size_t i = 0; n >= 2 && i < n; ++i) {  // the name with component i left out (another kept)
    const std::size_t end = i + 1 < n ? (*starts)[i + 1] - 1 : name.size();
    holed.assign(name.substr(0, (*starts)[i])).append(1, '\0').append(name.substr(end));
    out.push_back(Entry{fold(seeded_hash(holed), group), index, side});
  }
  for (std::size_t j = 0; j + 2 <= n; ++j)  // each suffix of two components or more
    out.push_back(Entry{fold(seeded_hash(name.substr((*starts)[j])) ^ 0x9e3779b97f4a7c15ull, group), index, side});
}

std::vector<std::string_view> split(std::string_view name) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t dot = name.find('.', at);
    parts.push_back(name.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at));
    if (dot == std::string_view::npos) return parts;
    at = dot + 1;
  }
}

// The names themselves fit a pattern (a hash collision cannot make a candidate).
bool fits(const SideTensor& a, const SideTensor& b) {
  if (common_dtype(a) != common_dtype(b) || a.info.shape != b.info.shape) return false;
  const auto pa = split(a.info.name), pb = split(b.info.name);
  if (pa.size() == pb.size() && pa.size() >= 2) {
    std::size_t differ = 0;
    for (std::size_t i = 0; i < pa.size(); ++i) differ += pa[i] != pb[i];
    if (differ == 1) return true;
  }
  std::size_t common = 0;
  while (common < pa.size() && common < pb.size() && pa[pa.size() - 1 - common] == pb[pb.size() - 1 - common]) ++common;
  return common >= 2;
}

}  // namespace

PatternResult match_by_pattern(const Side& old_side, const Side& new_side, const Matching& m, const DiffLimits& limits) {
  PatternResult r;
  if (m.removed.empty() || m.added.empty()) return r;
  if (m.removed.size() > limits.max_pattern_tensors || m.added.size() > limits.max_pattern_tensors) {
    r.skipped = "renames by name pattern were not looked for: " + std::to_string(m.removed.size()) + " removed and " +
                std::to_string(m.added.size()) + " added tensors, more than Limits::diff.max_pattern_tensors (" +
                std::to_string(limits.max_pattern_tensors) + ")";
    return r;
  }
  std::vector<Entry> entries;
  for (const std::size_t i : m.removed) add_keys(old_side.tensors[i], static_cast<std::uint32_t>(i), 0, limits, entries);
  for (const std::size_t i : m.added) add_keys(new_side.tensors[i], static_cast<std::uint32_t>(i), 1, limits, entries);
  std::sort(entries.begin(), entries.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;
  for (std::size_t g = 0; g < entries.size();) {
    std::size_t e = g;
    std::size_t olds = 0, news = 0;
    for (; e < entries.size() && entries[e].key == entries[g].key; ++e) {
      const bool fresh = e == g || entries[e].side != entries[e - 1].side || entries[e].tensor != entries[e - 1].tensor;
      if (fresh) (entries[e].side == 0 ? olds : news) += 1;
    }
    if (olds == 1 && news == 1) candidates.emplace_back(entries[g].tensor, entries[e - 1].tensor);
    g = e;
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::erase_if(candidates, [&](const auto& c) { return !fits(old_side.tensors[c.first], new_side.tensors[c.second]); });
  // Each must be the other's only candidate.
  std::vector<std::uint32_t> per_old(old_side.tensors.size(), 0), per_new(new_side.tensors.size(), 0);
  for (const auto& [o, n] : candidates) ++per_old[o], ++per_new[n];
  for (const auto& [o, n] : candidates)
    if (per_old[o] == 1 && per_new[n] == 1) r.pairs.push_back(Pair{o, n, MatchedBy::pattern});
  return r;
}

}  // namespace tensorgate::detail::diff
