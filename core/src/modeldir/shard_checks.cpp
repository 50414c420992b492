// SH: a sharded checkpoint's index (model.safetensors.index.json, or pytorch_model.bin.index.json
// for torch checkpoints) against its shards.
// Shard names come from an untrusted file: only names that are plain file names inside the
// directory are looked up, among the files the directory listing holds; none is ever opened.
#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>
#include <set>

#include "modeldir/dir_context.hpp"
#include "common/json_doc.hpp"
#include "common/printable.hpp"

namespace tensorgate::detail {
namespace {

bool plain_file_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         name.find('\\') == std::string_view::npos && name.find('\0') == std::string_view::npos;
}

// "<prefix>-NNNNN-of-NNNNN.safetensors" -> (prefix, index, total)
struct ShardName {
  std::string prefix;
  std::uint64_t index = 0, total = 0;
};

std::optional<ShardName> parse_shard_name(std::string_view name, std::string_view kExt) {
  if (!name.ends_with(kExt)) return std::nullopt;
  name.remove_suffix(kExt.size());
  // "-00001-of-00002" is 15 characters
  if (name.size() < 16) return std::nullopt;
  const std::string_view tail = name.substr(name.size() - 15);
  const auto digits = [](std::string_view d) {
    return d.size() == 5 && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (tail[0] != '-' || tail.substr(6, 4) != "-of-" || !digits(tail.substr(1, 5)) || !digits(tail.substr(10, 5)))
    return std::nullopt;
  return ShardName{std::string(name.substr(0, name.size() - 15)), std::stoull(std::string(tail.substr(1, 5))),
                   std::stoull(std::string(tail.substr(10, 5)))};
}

void check_shard_names(DirContext& ctx, const std::vector<std::string>& shards, std::string_view ext) {
  std::set<std::uint64_t> indices;
  std::optional<ShardName> first;
  for (const auto& name : shards) {
    const auto parsed = parse_shard_name(name, ext);
    if (!parsed) {
      ctx.add(Rule::sh_shard_name, "shard " + quoted(name, 80) + " is not named <prefix>-NNNNN-of-NNNNN" + std::string(ext));
      return;
    }
    if (!first) first = parsed;
    if (parsed->prefix != first->prefix || parsed->total != shards.size() || parsed->index == 0 ||
        parsed->index > parsed->total || !indices.insert(parsed->index).second) {
      ctx.add(Rule::sh_shard_name, "shard " + quoted(name, 80) + " does not fit " +
                                       quoted(first->prefix + "-NNNNN-of-" + std::to_string(shards.size()), 80) +
                                       " (one prefix, numbered 1 to the number of shards)");
      return;
    }
  }
}

struct Index {
  std::vector<std::pair<std::string, std::string>> weight_map;  // tensor -> shard, index order
  std::uint64_t total_size = 0;
};

std::optional<Index> read_index(DirContext& ctx, const ShardSet& set) {
  JsonDoc doc = parse_json_object(*set.index_json, ctx.limits());
  if (!doc.object) {
    ctx.add(Rule::sh_index_invalid, std::string(set.index_name) + ": " + doc.error);
    return std::nullopt;
  }
  const auto* map = doc.object->if_contains("weight_map");
  const auto* meta = doc.object->if_contains("metadata");
  const auto* total = meta && meta->is_object() ? meta->as_object().if_contains("total_size") : nullptr;
  if (!map || !map->is_object()) {
    ctx.add(Rule::sh_index_invalid, "the index has no weight_map object");
    return std::nullopt;
  }
  if (!total || !(total->is_uint64() || (total->is_int64() && total->as_int64() >= 0))) {
    ctx.add(Rule::sh_index_invalid, "the index has no metadata.total_size integer");
    return std::nullopt;
  }
  Index index;
  index.total_size = total->is_uint64() ? total->as_uint64() : static_cast<std::uint64_t>(total->as_int64());
  for (const auto& [tensor, shard] : map->as_object()) {
    if (!shard.is_string()) {
      ctx.add(Rule::sh_index_invalid, "weight_map maps a tensor to something other than a file name", tensor);
      return std::nullopt;
    }
    index.weight_map.emplace_back(std::string(tensor), std::string(shard.as_string()));
  }
  return index;
}

}  // namespace

void check_shards(DirContext& ctx, const ShardSet& set) {
  ctx.summary.sharded = true;
  const auto index = read_index(ctx, set);
  if (!index) return;
  ctx.summary.weight_map_size = index->weight_map.size();

  // The shards the index names, in order of first mention; only safe names are looked up.
  std::vector<std::string> shards;
  for (const auto& [tensor, shard] : index->weight_map)
    if (std::find(shards.begin(), shards.end(), shard) == shards.end()) shards.push_back(shard);
  ctx.summary.shard_count = shards.size();
  std::set<std::string> usable;  // exist, safe, valid
  for (const auto& shard : shards) {
    if (!plain_file_name(shard)) {
      ctx.add(Rule::sh_unsafe_path, "the index names " + quoted(shard, 80) + ": a shard must be a plain file name in the directory");
    } else if (!ctx.has_file(shard) || !ctx.weights_file(shard)) {
      ctx.add(Rule::sh_missing_shard, "the index names shard " + quoted(shard, 80) + ", which is not in the directory");
    } else if (!ctx.weights_file(shard)->valid) {
      ctx.add(Rule::sh_invalid_shard, "shard " + quoted(shard, 80) + " is not a valid " + std::string(set.kind));
    } else {
      usable.insert(shard);
      ctx.model_files.push_back(ctx.weights_file(shard));
    }
  }
  check_shard_names(ctx, shards, set.extension);

  // Where each tensor actually is, among the shards the index names.
  boost::unordered_flat_map<std::string, std::vector<std::string>> holders;
  std::uint64_t total = 0;
  for (const FileInventory* f : ctx.model_files)
    for (const auto& t : f->tensors) {
      holders[t.name].push_back(f->name);
      total += t.bytes;
    }
  boost::unordered_flat_map<std::string, std::string> indexed(index->weight_map.begin(), index->weight_map.end());
  for (const auto& [tensor, shard] : index->weight_map) {
    const auto it = holders.find(tensor);
    if (it == holders.end()) {
      if (usable.count(shard)) ctx.add(Rule::sh_missing_tensor, "the index puts it in " + quoted(shard, 80) + ", which does not hold it", tensor);
    } else if (std::find(it->second.begin(), it->second.end(), shard) == it->second.end()) {
      ctx.add(Rule::sh_wrong_shard, "the index puts it in " + quoted(shard, 80) + ", it is in " + quoted(it->second.front(), 80), tensor);
    }
  }
  for (const FileInventory* f : ctx.model_files)
    for (const auto& t : f->tensors) {
      const auto& where = holders[t.name];
      if (where.size() > 1 && where.front() == f->name)
        ctx.add(Rule::sh_duplicate_tensor, "it is in " + quoted(where[0], 80) + " and in " + quoted(where[1], 80), t.name);
      if (!indexed.contains(t.name))
        ctx.add(Rule::sh_unindexed_tensor, "shard " + quoted(f->name, 80) + " holds it, the index does not name it", t.name);
    }
  if (usable.size() == shards.size() && total != index->total_size)
    ctx.add(Rule::sh_total_size, "metadata.total_size is " + std::to_string(index->total_size) +
                                     ", the shards' tensors hold " + std::to_string(total) + " bytes");
  for (const auto& f : ctx.dir().weights)
    if ((set.torch ? is_torch_format(f.format) : f.format == Format::safetensors) &&
        std::find(shards.begin(), shards.end(), f.name) == shards.end())
      ctx.add(Rule::sh_unreferenced_file, f.name + " is in the directory but the index does not name it");
}

}  // namespace tensorgate::detail
