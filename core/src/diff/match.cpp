#include "match.hpp"

#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>

#include "pairing/model_config.hpp"
#include "common/seeded_hash.hpp"

namespace tensorgate::detail::diff {
namespace {

struct NameHash {
  std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
};
using NameIndex = boost::unordered_flat_map<std::string_view, std::size_t, NameHash>;

NameIndex index_names(const Side& side) {
  NameIndex index;
  index.reserve(side.tensors.size());
  for (std::size_t i = 0; i < side.tensors.size(); ++i) index.emplace(side.tensors[i].info.name, i);
  return index;
}

std::uint64_t gguf_heads(const GgufSummary& g, const pairing::ArchSpec& arch, std::string_view key) {
  const GgufScalar* s = find_gguf_scalar(g, std::string(arch.gguf_arch) + "." + std::string(key));
  const auto v = s ? gguf_scalar_value(*s) : std::nullopt;
  return v && v->integer && !v->negative ? v->magnitude : 0;
}

}  // namespace

NameMap choose_name_map(const Side& old_side, const Side& new_side, const DirectoryLimits& limits) {
  NameMap map;
  if (old_side.all_safetensors && new_side.all_gguf) map.old_is_safetensors = true;
  else if (!(old_side.all_gguf && new_side.all_safetensors)) return map;
  const Side& hf = map.old_is_safetensors ? old_side : new_side;
  const Side& gguf = map.old_is_safetensors ? new_side : old_side;
  std::optional<pairing::ModelConfig> config;
  if (hf.in->config_json) {
    auto parsed = pairing::parse_model_config(*hf.in->config_json, limits);
    if (parsed.config) config = std::move(parsed.config);
  }
  if (config) map.arch = pairing::find_architecture(config->model_type, config->class_name);
  if (!map.arch && gguf.first_gguf && gguf.first_gguf->architecture)
    map.arch = pairing::find_gguf_architecture(*gguf.first_gguf->architecture);
  if (!map.arch) return map;
  if (config) {
    map.q_heads = config->integer(pairing::ConfigField::heads).value_or(0);
    map.k_heads = config->integer(pairing::ConfigField::kv_heads).value_or(0);
  }
  if (!map.q_heads && gguf.first_gguf) {
    map.q_heads = gguf_heads(*gguf.first_gguf, *map.arch, "attention.head_count");
    map.k_heads = gguf_heads(*gguf.first_gguf, *map.arch, "attention.head_count_kv");
    if (!map.k_heads) map.k_heads = map.q_heads;  // llama.cpp's default
  }
  return map;
}

Matching match_by_name(const Side& old_side, const Side& new_side, const NameMap& map) {
  Matching m;
  const NameIndex new_names = index_names(new_side);
  std::vector<bool> new_taken(new_side.tensors.size(), false), old_taken(old_side.tensors.size(), false);
  for (std::size_t i = 0; i < old_side.tensors.size(); ++i) {
    const auto it = new_names.find(old_side.tensors[i].info.name);
    if (it == new_names.end()) continue;
    m.pairs.push_back(Pair{i, it->second, MatchedBy::name});
    old_taken[i] = new_taken[it->second] = true;
  }
  if (map.arch) {
    // Safetensors names become llama.cpp's; a GGUF name is taken once.
    const Side& hf = map.old_is_safetensors ? old_side : new_side;
    std::vector<bool>& hf_taken = map.old_is_safetensors ? old_taken : new_taken;
    std::vector<bool>& gguf_taken = map.old_is_safetensors ? new_taken : old_taken;
    const NameIndex gguf_names = index_names(map.old_is_safetensors ? new_side : old_side);
    for (std::size_t i = 0; i < hf.tensors.size(); ++i) {
      if (hf_taken[i]) continue;
      const auto mapped = pairing::map_name(*map.arch, hf.tensors[i].info.name);
      if (!mapped) continue;
      const auto it = gguf_names.find(mapped->gguf);
      if (it == gguf_names.end() || gguf_taken[it->second]) continue;
      hf_taken[i] = gguf_taken[it->second] = true;
      const std::size_t o = map.old_is_safetensors ? i : it->second, n = map.old_is_safetensors ? it->second : i;
      m.pairs.push_back(Pair{o, n, MatchedBy::name_map, mapped->order});
    }
  }
  for (std::size_t i = 0; i < old_side.tensors.size(); ++i)
    if (!old_taken[i]) m.removed.push_back(i);
  for (std::size_t i = 0; i < new_side.tensors.size(); ++i)
    if (!new_taken[i]) m.added.push_back(i);
  return m;
}

void take_pairs(Matching& m, const std::vector<Pair>& found) {
  if (found.empty()) return;
  std::vector<bool> old_paired, new_paired;
  std::size_t old_max = 0, new_max = 0;
  for (const Pair& p : found) old_max = std::max(old_max, p.old_index + 1), new_max = std::max(new_max, p.new_index + 1);
  old_paired.assign(old_max, false);
  new_paired.assign(new_max, false);
  for (const Pair& p : found) {
    old_paired[p.old_index] = new_paired[p.new_index] = true;
    m.pairs.push_back(p);
  }
  std::erase_if(m.removed, [&](std::size_t i) { return i < old_max && old_paired[i]; });
  std::erase_if(m.added, [&](std::size_t i) { return i < new_max && new_paired[i]; });
}

}  // namespace tensorgate::detail::diff
