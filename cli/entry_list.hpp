#pragma once
// What `tensorgate check` is asked to check: the paths and URLs of the command line, then those
// of --list FILE, and of them the share --shard K/N gives this process.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tensorgate::cli {

// One URL or path per line; blank lines and lines starting with '#' are skipped, surrounding
// whitespace (and a CR before the LF) is not part of the entry. Nothing, with `error` set, when
// the file cannot be read or a line is longer than kMaxListLine.
inline constexpr std::size_t kMaxListLine = 64 * 1024;
std::optional<std::vector<std::string>> read_list(const std::string& path, std::string& error);

// --shard K/N: this process takes the entries whose position (counted from 0 over the command
// line's entries, then the list's) is K modulo N. Deterministic, and every entry falls in exactly
// one of the N shards: N processes with K = 0..N-1 check each entry once.
struct Shard {
  std::uint32_t index = 0;  // K, 0 <= K < N (a Kubernetes Indexed Job's completion index)
  std::uint32_t count = 1;  // N
};
inline constexpr std::uint32_t kMaxShards = 1'000'000;
// "K/N" with 0 <= K < N <= kMaxShards, decimal digits only; nothing otherwise.
std::optional<Shard> parse_shard(std::string_view text);
std::vector<std::string> select_shard(const std::vector<std::string>& entries, Shard shard);

}  // namespace tensorgate::cli
