#include "content_hash.hpp"

#include <algorithm>
#include <map>
#include <span>

#include "tensorgate/sha256.hpp"

namespace tensorgate::detail::diff {
namespace {

constexpr std::uint64_t kMinChunk = 64 << 10;

// dtype and shape as one comparable key.
std::string group_of(const SideTensor& t) {
  std::string g(common_dtype(t));
  for (const std::uint64_t d : t.info.shape) g += "," + std::to_string(d);
  return g;
}

struct Candidate {
  std::uint32_t side;  // 0 old, 1 new
  std::size_t index;
  std::string digest;
};

class Hasher {
 public:
  explicit Hasher(std::uint64_t chunk) : buffer_(static_cast<std::size_t>(std::max(chunk, kMinChunk))) {}
  // The digest of the tensor's bytes, or nothing when a read failed.
  std::optional<std::string> digest(const Side& side, const SideTensor& t) {
    ByteSource* bytes = side.in->files[t.info.file].bytes;
    if (!bytes) return std::nullopt;
    Sha256 sha;
    for (std::uint64_t done = 0; done < t.info.bytes;) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size(), t.info.bytes - done));
      if (!bytes->read(t.position + done, std::span(buffer_.data(), n))) return std::nullopt;
      sha.update(buffer_.data(), n);
      done += n;
      bytes_read_ += n;
    }
    return sha.hex_digest();
  }
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  std::vector<std::byte> buffer_;
  std::uint64_t bytes_read_ = 0;
};

}  // namespace

ContentResult match_by_content(const Side& old_side, const Side& new_side, const Matching& m, const DiffLimits& limits) {
  ContentResult r;
  if (m.removed.empty() || m.added.empty()) return r;
  // Only groups with tensors on both sides are worth reading.
  std::map<std::string, std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> groups;
  // A tensor whose bytes the diff cannot read (a PyTorch checkpoint's) has no content hash.
  for (const std::size_t i : m.removed)
    if (old_side.tensors[i].values_unread.empty()) groups[group_of(old_side.tensors[i])].first.push_back(i);
  for (const std::size_t i : m.added)
    if (new_side.tensors[i].values_unread.empty()) groups[group_of(new_side.tensors[i])].second.push_back(i);
  std::vector<Candidate> candidates;
  for (const auto& [g, members] : groups) {
    if (members.first.empty() || members.second.empty()) continue;
    for (const std::size_t i : members.first) candidates.push_back(Candidate{0, i, {}});
    for (const std::size_t i : members.second) candidates.push_back(Candidate{1, i, {}});
  }
  // Each side in file order: one pass over each file's data.
  const auto where = [&](const Candidate& c) {
    const SideTensor& t = (c.side ? new_side : old_side).tensors[c.index];
    return std::tuple(c.side, t.info.file, t.position);
  };
  std::sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) { return where(a) < where(b); });
  Hasher hasher(limits.chunk_bytes);
  for (Candidate& c : candidates) {
    const Side& side = c.side ? new_side : old_side;
    auto d = hasher.digest(side, side.tensors[c.index]);
    if (!d) {
      r.io_error = "cannot read " + side.in->files[side.tensors[c.index].info.file].path + ": it changed or a read failed";
      break;
    }
    c.digest = std::move(*d);
  }
  r.bytes_read = hasher.bytes_read();
  if (r.io_error) return r;
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> same;
  for (const Candidate& c : candidates) {
    const SideTensor& t = (c.side ? new_side : old_side).tensors[c.index];
    auto& slot = same[{group_of(t), c.digest}];
    (c.side ? slot.second : slot.first).push_back(c.index);
  }
  for (const auto& [key, members] : same)
    if (members.first.size() == 1 && members.second.size() == 1)
      r.pairs.push_back(Pair{members.first[0], members.second[0], MatchedBy::content});
  std::sort(r.pairs.begin(), r.pairs.end(), [](const Pair& a, const Pair& b) { return a.old_index < b.old_index; });
  return r;
}

}  // namespace tensorgate::detail::diff
