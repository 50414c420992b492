#pragma once
// A SavedModel's variables/variables.index: TensorFlow's tensor bundle index, a table in the
// format TensorFlow's table builder writes (leveldb's: data blocks of prefix-compressed entries
// with restart points, each block snappy-compressed or not, an index block pointing to them, a
// 48-byte footer with the table magic; the blocks' checksums are not verified, as TensorFlow's
// reader does not by default).
// The entry of key "" is the bundle's header (BundleHeaderProto: num_shards); every other
// entry is a variable (BundleEntryProto: its shard, offset and size in that shard). Read whole
// from memory, each block and entry bounded by the bytes it sits in; no recursion.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::detail::savedmodel {

struct BundleEntry {
  std::string_view name;  // the variable's key, valid during the call
  std::uint32_t shard = 0;
  std::uint64_t offset = 0, size = 0;
  std::uint64_t num_shards = 0;  // the header's, which comes first
};

struct BundleIndex {
  std::optional<std::string> error;  // why the bytes are not such a table
  bool has_header = false;
  std::uint64_t num_shards = 0;      // the header's
  std::uint64_t entries = 0;         // variables, the header not counted
};

// Reads the table, handing each variable's entry to `on_entry` in key order. A compressed block
// is uncompressed into a buffer of at most `max_block_bytes`.
BundleIndex read_bundle_index(std::string_view bytes, std::uint64_t max_block_bytes,
                              const std::function<void(const BundleEntry&)>& on_entry);

}  // namespace tensorgate::detail::savedmodel
