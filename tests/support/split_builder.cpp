#include "split_builder.hpp"

#include "gguf_builder.hpp"

namespace tgtest {

std::vector<ShardSpec> split_set(const std::string& prefix, std::uint64_t shards, std::uint64_t blocks) {
  std::vector<std::string> names = {"token_embd.weight"};
  for (std::uint64_t b = 0; b < blocks; ++b) {
    names.push_back("blk." + std::to_string(b) + ".attn_q.weight");
    names.push_back("blk." + std::to_string(b) + ".ffn_up.weight");
  }
  names.push_back("output.weight");
  std::vector<ShardSpec> out;
  const auto five = [](std::uint64_t v) {
    std::string s = std::to_string(v);
    return std::string(s.size() < 5 ? 5 - s.size() : 0, '0') + s;
  };
  for (std::uint64_t i = 0; i < shards; ++i) {
    ShardSpec s;
    s.name = prefix + "-" + five(i + 1) + "-of-" + five(shards) + ".gguf";
    s.split_no = i;
    s.split_count = shards;
    s.split_tensors_count = names.size();
    s.architecture = i == 0;
    if (i == 0) s.block_count = blocks;
    // Contiguous runs of tensors, as gguf-split's --split-max-tensors cuts them.
    const std::size_t begin = names.size() * i / shards, end = names.size() * (i + 1) / shards;
    s.tensors.assign(names.begin() + static_cast<std::ptrdiff_t>(begin), names.begin() + static_cast<std::ptrdiff_t>(end));
    out.push_back(std::move(s));
  }
  return out;
}

std::string shard_bytes(const ShardSpec& s) {
  GgufBuilder b;
  if (s.architecture) b.kv_str("general.architecture", "llama").kv_str("general.name", "Split Llama");
  if (s.block_count) b.kv_u32("llama.block_count", static_cast<std::uint32_t>(*s.block_count));
  if (s.split_no) b.kv_raw("split.no", kGgufU16, b.enc().u16(static_cast<std::uint16_t>(*s.split_no)).bytes());
  if (s.split_count) b.kv_raw("split.count", kGgufU16, b.enc().u16(static_cast<std::uint16_t>(*s.split_count)).bytes());
  if (s.split_tensors_count) b.kv_i32("split.tensors.count", static_cast<std::int32_t>(*s.split_tensors_count));
  for (const auto& t : s.tensors) b.tensor(t, 0, {8});
  std::string bytes = b.build();
  if (s.corrupt) bytes[1] = 'X';
  return bytes;
}

std::vector<BuiltShard> build_shards(const std::vector<ShardSpec>& shards) {
  std::vector<BuiltShard> out;
  for (const auto& s : shards) out.push_back({s.name, shard_bytes(s)});
  return out;
}

}  // namespace tgtest
