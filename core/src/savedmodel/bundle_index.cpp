#include "savedmodel/bundle_index.hpp"

#include <algorithm>

#include "savedmodel/snappy.hpp"

namespace tensorgate::detail::savedmodel {
namespace {

constexpr std::uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr std::size_t kFooterSize = 48;       // two handles padded to 40 bytes, then the magic
constexpr std::size_t kBlockTrailerSize = 5;  // compression type, crc32c

// A cursor over bytes that refuses to read past them.
struct Cursor {
  std::string_view s;
  std::size_t pos = 0;
  bool ok = true;

  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 10; ++i) {
      if (pos >= s.size()) break;
      const auto b = static_cast<unsigned char>(s[pos++]);
      v |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
      if (!(b & 0x80)) return v;
    }
    ok = false;
    return 0;
  }
  std::string_view bytes(std::uint64_t n) {
    if (!ok || n > s.size() - pos) {
      ok = false;
      return {};
    }
    const std::string_view out = s.substr(pos, n);
    pos += n;
    return out;
  }
  bool done() const { return pos >= s.size(); }
};

std::uint64_t le(std::string_view s, std::size_t pos, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(s[pos + i]);
  return v;
}

// A block's entries (without the restart array) from its handle, or an error. A block
// compressed with snappy (TensorFlow's table default) is uncompressed into `buffer`, of at most
// `max_bytes`.
std::optional<std::string_view> block_at(std::string_view file, std::uint64_t offset, std::uint64_t size,
                                         std::uint64_t max_bytes, std::string& buffer, std::string& error) {
  if (offset > file.size() || size > file.size() - offset || file.size() - offset - size < kBlockTrailerSize) {
    error = "a block runs past the index";
    return std::nullopt;
  }
  std::string_view block = file.substr(offset, size);
  switch (static_cast<unsigned char>(file[offset + size])) {
    case 0: break;
    case 1: {
      std::optional<std::string> plain = snappy_uncompress(block, max_bytes, error);
      if (!plain) {
        error = "a block is not snappy: " + error;
        return std::nullopt;
      }
      buffer = std::move(*plain);
      block = buffer;
      break;
    }
    default:
      error = "a block is compressed with type " + std::to_string(static_cast<unsigned char>(file[offset + size])) +
              ", neither none nor snappy";
      return std::nullopt;
  }
  if (block.size() < 4) {
    error = "a block is shorter than its restart count";
    return std::nullopt;
  }
  const std::uint64_t restarts = le(block, block.size() - 4, 4);
  if (restarts > (block.size() - 4) / 4) {
    error = "a block's restart array is larger than the block";
    return std::nullopt;
  }
  return block.substr(0, block.size() - 4 - restarts * 4);
}

// Each entry of a block: its full key (rebuilt from the shared prefix) and value.
template <class OnEntry>
bool for_each_entry(std::string_view entries, std::string& key, std::string& error, OnEntry on_entry) {
  Cursor c{entries};
  key.clear();
  while (!c.done()) {
    const std::uint64_t shared = c.varint(), unshared = c.varint(), value_size = c.varint();
    if (!c.ok || shared > key.size()) {
      error = "an entry's key or lengths are malformed";
      return false;
    }
    const std::string_view delta = c.bytes(unshared);
    const std::string_view value = c.bytes(value_size);
    if (!c.ok) {
      error = "an entry runs past its block";
      return false;
    }
    key.resize(shared);
    key.append(delta);
    if (!on_entry(std::string_view(key), value)) return false;
  }
  return true;
}

// BundleHeaderProto's num_shards (field 1), BundleEntryProto's shard_id (3), offset (4) and
// size (5); other fields are skipped by their wire type.
bool read_fields(std::string_view value, std::uint64_t (&out)[6]) {
  Cursor c{value};
  while (!c.done()) {
    const std::uint64_t tag = c.varint();
    const std::uint64_t field = tag >> 3;
    switch (tag & 7) {
      case 0: {
        const std::uint64_t v = c.varint();
        if (field < 6) out[field] = v;
        break;
      }
      case 1: c.bytes(8); break;
      case 2: c.bytes(c.varint()); break;
      case 5: c.bytes(4); break;
      default: return false;
    }
    if (!c.ok || field == 0) return false;
  }
  return true;
}

}  // namespace

BundleIndex read_bundle_index(std::string_view file, std::uint64_t max_block_bytes,
                              const std::function<void(const BundleEntry&)>& on_entry) {
  BundleIndex out;
  std::string error;
  const auto fail = [&](std::string why) {
    out.error = std::move(why);
    return out;
  };
  if (file.size() < kFooterSize || le(file, file.size() - 8, 8) != kTableMagic)
    return fail("it does not end with the table magic TensorFlow's table builder writes");
  Cursor footer{file.substr(file.size() - kFooterSize, kFooterSize - 8)};
  footer.varint();  // the metaindex block: empty in a bundle
  footer.varint();
  const std::uint64_t index_offset = footer.varint(), index_size = footer.varint();
  if (!footer.ok) return fail("its footer's block handles are malformed");
  std::string index_buffer, data_buffer;
  const std::optional<std::string_view> index = block_at(file, index_offset, index_size, max_block_bytes, index_buffer, error);
  if (!index) return fail("its index block: " + error);
  std::string index_key, key;
  bool first = true;
  const bool walked = for_each_entry(*index, index_key, error, [&](std::string_view, std::string_view handle) {
    Cursor h{handle};
    const std::uint64_t offset = h.varint(), size = h.varint();
    if (!h.ok) {
      error = "a block handle is malformed";
      return false;
    }
    const std::optional<std::string_view> block = block_at(file, offset, size, max_block_bytes, data_buffer, error);
    if (!block) return false;
    return for_each_entry(*block, key, error, [&](std::string_view name, std::string_view value) {
      std::uint64_t fields[6] = {0, 0, 0, 0, 0, 0};
      if (!read_fields(value, fields)) {
        error = "the entry of " + std::string(name.substr(0, 200)) + " is not a protobuf message";
        return false;
      }
      if (first && !name.empty()) {
        error = "its first entry is not the header (the key \"\" with the shard count)";
        return false;
      }
      if (first) {
        out.has_header = true;
        out.num_shards = fields[1];
      } else {
        ++out.entries;
        on_entry(BundleEntry{name, static_cast<std::uint32_t>(std::min<std::uint64_t>(fields[3], UINT32_MAX)), fields[4], fields[5], out.num_shards});
      }
      first = false;
      return true;
    });
  });
  if (!walked) return fail(error);
  if (!out.has_header) return fail("it has no entries, not even the header (the key \"\" with the shard count)");
  return out;
}

}  // namespace tensorgate::detail::savedmodel
