#include "value_pass.hpp"

#include <algorithm>
#include <tuple>

#include "pairing/pair_stream.hpp"
#include "pairing/permute.hpp"
#include "value_compare.hpp"

namespace tensorgate::detail::diff {
namespace {

struct Job {
  std::size_t pair = 0;
  pairing::PairLayout layout;
  ByteSource* source = nullptr;  // read by runs: OLD, or the safetensors side of permuted rows
  ByteSource* ordered = nullptr; // read in order: NEW, or the GGUF side
  bool swap = false;             // the source is NEW
  std::string scope;
  std::tuple<int, std::size_t, std::uint64_t> order_key;
};

std::uint64_t product_from(const std::vector<std::uint64_t>& shape, std::size_t first) {
  std::uint64_t n = 1;
  for (std::size_t i = first; i < shape.size(); ++i) n *= shape[i];
  return n;
}

ValueDiff not_compared(std::string reason) {
  ValueDiff v;
  v.reason = std::move(reason);
  return v;
}

// How many elements to compare, and the scope; or the reason for none.
std::optional<std::string> elements_to_compare(const SideTensor& o, const SideTensor& n, std::uint64_t& count,
                                               std::string& scope) {
  if (same_shape(o, n)) return count = o.elements, scope = "all", std::nullopt;
  const auto& a = o.info.shape;
  const auto& b = n.info.shape;
  if (!a.empty() && a.size() == b.size() && std::equal(a.begin() + 1, a.end(), b.begin() + 1)) {
    count = std::min(a[0], b[0]) * product_from(a, 1);
    scope = "common-rows";
    if (count == 0) return "no rows in common";
    return std::nullopt;
  }
  if (o.elements == n.elements) return count = o.elements, scope = "flattened", std::nullopt;
  return "the shapes differ beyond the first dimension, and so does the element count";
}

std::optional<std::string> plan_pair(const Side& old_side, const Side& new_side, const Pair& p, const NameMap& map,
                                     Job& job) {
  const SideTensor& o = old_side.tensors[p.old_index];
  const SideTensor& n = new_side.tensors[p.new_index];
  if (!o.values_unread.empty()) return std::string(o.values_unread);
  if (!n.values_unread.empty()) return std::string(n.values_unread);
  if (!comparable(o.encoding, n.encoding))
    return o.info.dtype + " -> " + n.info.dtype + ": the diff does not decode " +
           (o.encoding.kind == ElementKind::opaque ? o.info.dtype : n.info.dtype) + " (bytes compare only within one type)";
  std::uint64_t count = 0;
  if (auto why = elements_to_compare(o, n, count, job.scope)) return why;
  const SideTensor& src = p.order != pairing::RowOrder::as_is && !map.old_is_safetensors ? n : o;
  const SideTensor& ord = &src == &n ? o : n;
  job.swap = &src == &n;
  pairing::PairLayout& l = job.layout;
  l.source_offset = src.position;
  l.gguf_offset = ord.position;
  l.source_size = src.encoding.block_bytes;
  l.source_block = src.encoding.block;
  l.block = ord.encoding.block;
  l.block_bytes = ord.encoding.block_bytes;
  l.rows = 1;
  l.cols = count;
  if (p.order != pairing::RowOrder::as_is) {
    const std::uint64_t heads = p.order == pairing::RowOrder::rope_q ? map.q_heads : map.k_heads;
    if (job.scope != "all") return "the shape changed, and the converter permutes these rows";
    if (!heads) return "the q/k row permutation needs num_attention_heads (config.json or the GGUF's metadata)";
    l.rows = src.info.shape.empty() ? 1 : src.info.shape[0];
    if (!pairing::permutable_rows(l.rows, heads))
      return std::to_string(l.rows) + " rows do not split into " + std::to_string(heads) + " heads of an even number of rows";
    l.cols = count / l.rows;
    l.heads = heads;
  }
  if (l.cols % l.source_block || l.cols % l.block) return "the elements compared do not end on a whole block";
  job.source = (&src == &o ? old_side : new_side).in->files[src.info.file].bytes;
  job.ordered = (&ord == &o ? old_side : new_side).in->files[ord.info.file].bytes;
  job.order_key = {&ord == &n ? 1 : 0, ord.info.file, ord.position};
  return std::nullopt;
}

}  // namespace

ValuePassResult compare_values(const Side& old_side, const Side& new_side, const Matching& m, const NameMap& map,
                               const DiffLimits& limits) {
  ValuePassResult r;
  r.values.resize(m.pairs.size());
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < m.pairs.size(); ++i) {
    Job job;
    job.pair = i;
    if (auto why = plan_pair(old_side, new_side, m.pairs[i], map, job)) {
      r.values[i] = not_compared(std::move(*why));
      continue;
    }
    if (!job.source || !job.ordered) {
      r.io_error = "--values needs the bytes of every file";
      return r;
    }
    jobs.push_back(std::move(job));
  }
  if (jobs.empty()) return r;
  std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.order_key < b.order_key; });
  AuditLimits stream_limits;
  stream_limits.chunk_bytes = limits.chunk_bytes;
  stream_limits.max_pieces = limits.max_pieces;
  pairing::PairStream stream(stream_limits);
  for (const Job& job : jobs) {
    const Pair& p = m.pairs[job.pair];
    ValueComparator cmp(old_side.tensors[p.old_index].encoding, new_side.tensors[p.new_index].encoding);
    const bool ok = stream.run(*job.source, *job.ordered, job.layout, [&](const pairing::Piece& piece) {
      if (job.swap) cmp.run(piece.gguf, piece.source, piece.n);
      else cmp.run(piece.source, piece.gguf, piece.n);
    });
    if (!ok) {
      r.io_error = "cannot read " + old_side.in->path + " or " + new_side.in->path + ": they changed or a read failed";
      break;
    }
    ValueDiff v = cmp.result();
    v.scope = job.scope;
    r.values[job.pair] = std::move(v);
  }
  r.bytes_read = stream.bytes_read();
  return r;
}

}  // namespace tensorgate::detail::diff
