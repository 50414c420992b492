// What the summary lists (Limits::flax.max_listed_arrays), and a map's end: a chunked array
// judged and folded into the one array it stands for (fx_chunked.hpp), a "shape" or "chunks"
// value handed to the map it belongs to.
#include "flax/validator.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail::flax {

void FlaxValidator::record(FlaxArray a, const Dtype* dtype, bool ok, std::uint64_t elements) {
  if (!stack_.empty() && stack_.back().role == Role::map)
    stack_.back().tally.direct.add(dtype, ok, elements, a.bytes, a.offset);
  summary_.parameters += elements;
  summary_.total_bytes += a.bytes;
  list(std::move(a));
}

// A path is as long as 64 levels of 4 KiB keys: one row is cut to kMaxListedPath bytes, and the
// rows together hold at most kMaxListedPathBytes of paths, so that a small file of deep long
// keys and many arrays cannot make the summary thousands of times its size.
void FlaxValidator::list(FlaxArray a) {
  ++summary_.arrays_total;
  if (a.path.size() > kMaxListedPath) {
    a.path.resize(utf8_prefix(a.path, kMaxListedPath - 3));
    a.path += "...";
  }
  if (summary_.arrays.size() >= limits_.flax.max_listed_arrays || listed_path_bytes_ + a.path.size() > kMaxListedPathBytes) {
    ++summary_.arrays_not_listed;
    return;
  }
  if (!memory_.add(sizeof(FlaxArray) + a.path.size() + a.dtype.size() + 8 * a.shape.size())) {
    ++summary_.arrays_not_listed;
    return abort_with("flax-memory-budget", "no memory left in the shared budget for the list of arrays",
                      AbortKind::memory_budget);
  }
  listed_path_bytes_ += a.path.size();
  summary_.arrays.push_back(std::move(a));
}

void FlaxValidator::close_map(Frame& f) {
  MapTally& t = f.tally;
  if (t.marker) {
    const std::uint64_t inside = summary_.arrays_total - t.arrays_start;
    if (const auto why = chunked_refusal(t, inside)) {
      findings_.add(Rule::fx_array,
                    "the chunked array at byte " + std::to_string(f.offset) + " (a map with the key " +
                        std::string(kChunkedMarker) + "): " + *why,
                    f.offset, std::string_view(path_).substr(0, f.path_len));
    } else {
      const ArraysTally& c = *t.chunks;
      FlaxArray a{path_.substr(0, f.path_len), std::string(c.dtype->name), std::move(*t.shape), c.first_offset, c.bytes,
                  c.arrays};
      // The chunks' rows and the marker's and shape's leaves become the one array's row.
      if (summary_.arrays.size() > t.listed_start) summary_.arrays.resize(t.listed_start);
      summary_.arrays_total = t.arrays_start;
      summary_.arrays_not_listed = t.not_listed_start;
      summary_.scalars = t.scalars_start;
      list(std::move(a));
    }
  }
  if (stack_.size() < 2) return;
  MapTally& parent = stack_[stack_.size() - 2].tally;
  if (f.own_role == KeyRole::shape) {
    if (t.dims_ok && t.keys_ok) parent.shape = std::move(t.dims);
    else parent.shape_bad = true;
  } else if (f.own_role == KeyRole::chunks) {
    parent.chunks = t.direct;
    parent.chunk_keys_bad = !t.keys_ok;
  }
}

}  // namespace tensorgate::detail::flax
