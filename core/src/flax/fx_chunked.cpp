#include "flax/fx_chunked.hpp"

namespace tensorgate::detail::flax {

void ArraysTally::add(const Dtype* d, bool ok, std::uint64_t n, std::uint64_t b, std::uint64_t offset) {
  if (arrays == 0) {
    dtype = d;
    first_offset = offset;
  }
  mixed = mixed || !ok || d != dtype;
  ++arrays;
  elements += n;
  bytes += b;
}

std::optional<std::uint64_t> elements_of(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) {
    if (d != 0 && n > UINT64_MAX / d) return std::nullopt;
    n *= d;
  }
  return n;
}

std::optional<std::string> chunked_refusal(const MapTally& t, std::uint64_t arrays_inside) {
  if (t.shape_bad) return "its \"shape\" map is not {\"0\": d0, \"1\": d1, ...} of non-negative ints";
  if (t.chunk_keys_bad) return "its \"chunks\" map's keys are not \"0\", \"1\", ... in order";
  if (!t.shape) return "it has no \"shape\" map of its dimensions";
  if (!t.chunks) return "it has no \"chunks\" map of its pieces";
  if (t.shape->size() > kMaxDims) return "its shape has more than 64 dimensions";
  const ArraysTally& c = *t.chunks;
  if (c.arrays == 0) return "its \"chunks\" map holds no array (np.concatenate of nothing fails)";
  if (c.others > 0 || c.arrays != arrays_inside) return "it holds values that are not chunks (arrays) of its \"chunks\" map";
  if (c.mixed) return "its chunks are not all valid arrays of one dtype";
  const auto n = elements_of(*t.shape);
  if (!n || *n != c.elements)
    return "its chunks hold " + std::to_string(c.elements) + " elements, its shape " +
           (n ? std::to_string(*n) : std::string("more than 2^64"));
  return std::nullopt;
}

}  // namespace tensorgate::detail::flax
