#pragma once
// A chunked array: flax's _chunk_array_leaves_in_place writes an array of more than 2^30 bytes
// as a map {"__msgpack_chunked_array__": true, "shape": {"0": d0, ...}, "chunks": {"0": array,
// ...}} of flat arrays, which from_bytes concatenates and reshapes. Every map keeps what such a
// map needs of its children while it streams, so that at its end it is judged (FX.array) and
// listed as the one array it stands for.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flax/fx_dtype.hpp"

namespace tensorgate::detail::flax {

inline constexpr std::string_view kChunkedMarker = "__msgpack_chunked_array__";
// NumPy's bound on dimensions (NPY_MAXDIMS is 64 since NumPy 2, 32 before).
inline constexpr std::size_t kMaxDims = 64;

// A map's direct array children (a "chunks" map's chunks).
struct ArraysTally {
  std::uint64_t arrays = 0, others = 0, elements = 0, bytes = 0, first_offset = 0;
  const Dtype* dtype = nullptr;
  bool mixed = false;  // dtypes differ, or an array was refused

  void add(const Dtype* d, bool ok, std::uint64_t elements, std::uint64_t bytes, std::uint64_t offset);
};

struct MapTally {
  bool marker = false;           // a "__msgpack_chunked_array__" key
  std::size_t listed_start = 0;  // the summary's counts when the map began, to fold its chunks
  std::uint64_t arrays_start = 0, not_listed_start = 0, scalars_start = 0;
  ArraysTally direct;  // its own array children
  // When the map is a "shape" value: its values, while they are non-negative ints.
  std::vector<std::uint64_t> dims;
  bool dims_ok = true;
  // When the map is a "shape" or "chunks" value: its keys are "0", "1", ... in order, as
  // _tuple_to_dict writes them and _dict_to_tuple reads them back.
  bool keys_ok = true;
  // From its "shape" and "chunks" children, once they ended.
  std::optional<std::vector<std::uint64_t>> shape;
  bool shape_bad = false;  // a "shape" map with a value that is not a non-negative int, or keys not 0..n-1
  bool chunk_keys_bad = false;  // a "chunks" map whose keys are not 0..n-1
  std::optional<ArraysTally> chunks;
};

// Why a map with the marker is not a chunked array flax restores, or nullopt when it is.
// `arrays_inside`: every array the map holds at any depth.
std::optional<std::string> chunked_refusal(const MapTally& t, std::uint64_t arrays_inside);

// The product of a shape's dimensions; nullopt past 2^64.
std::optional<std::uint64_t> elements_of(const std::vector<std::uint64_t>& shape);

}  // namespace tensorgate::detail::flax
