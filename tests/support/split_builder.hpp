#pragma once
// Split GGUF sets as llama.cpp's gguf-split writes them, for tests, tools and fuzz seeds: shard
// <prefix>-NNNNN-of-MMMMM.gguf, the first with the model's metadata (general.architecture,
// llama.block_count), every shard with split.no (u16, from 0), split.count (u16) and
// split.tensors.count (i32), the model's blk.N tensors spread over the shards. A test breaks a
// set by editing the ShardSpecs before building them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tgtest {

struct ShardSpec {
  std::string name;
  std::optional<std::uint64_t> split_no, split_count, split_tensors_count;
  bool architecture = false;
  std::optional<std::uint64_t> block_count;
  std::vector<std::string> tensors;  // F32 [8] each
  bool corrupt = false;              // a broken magic
};

// A whole set of `shards` shards, `blocks` blocks of two tensors each (blk.N.attn_q.weight,
// blk.N.ffn_up.weight) plus token_embd.weight in the first shard and output.weight in the last.
std::vector<ShardSpec> split_set(const std::string& prefix = "model", std::uint64_t shards = 3, std::uint64_t blocks = 3);

std::string shard_bytes(const ShardSpec& s);

struct BuiltShard {
  std::string name, bytes;
};
std::vector<BuiltShard> build_shards(const std::vector<ShardSpec>& shards);

}  // namespace tgtest
