#pragma once
// Split GGUF sets among the files given on the command line (family GS): two or more GGUF files
// of one directory given together that are named as shards or carry split metadata are also
// checked as sets. One entry per directory, path "<dir>/<prefix>-*-of-MMMMM.gguf" (or
// "<dir>/*.gguf" for several sets), in the report shape of a model directory.
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/model_dir.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/gguf.hpp"

namespace tensorgate::cli {

// A file given by itself (not found in a model directory) that may be a shard: its path and the
// facts the set checks need, taken while its report still holds its tensor inventory.
struct GivenShard {
  std::string path;
  GgufFileFacts facts;
};

// The facts of `file` when it is a GGUF report named as a shard or with split metadata (a
// renamed shard is GS.name), or a file named as a shard that is no GGUF (an invalid shard);
// nothing otherwise.
std::optional<GivenShard> given_shard(const CheckedFile& file);

// Appends the set entries of `shards` (in command-line order) to `out`.
void check_given_split_sets(const std::vector<GivenShard>& shards, const Limits& limits, std::vector<CheckedFile>& out);

}  // namespace tensorgate::cli
