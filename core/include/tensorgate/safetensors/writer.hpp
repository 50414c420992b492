#pragma once
// The canonical writer: byte-identical to the reference library's serialize ("Rules a
// canonical writer follows"; STC1-STC4).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tensorgate/safetensors/dtype.hpp"
#include "tensorgate/safetensors/tensor_table.hpp"

namespace tensorgate {

struct TensorSpec {
  std::string name;
  Dtype dtype;
  std::vector<std::uint64_t> shape;
  std::span<const std::byte> data;  // shape x dtype size bytes, little-endian, row-major
};

using Metadata = std::vector<std::pair<std::string, std::string>>;

struct WriteResult {
  std::string bytes;  // the whole file
  std::string error;  // empty on success: a duplicate name, a name or metadata that is not
                      // valid UTF-8 (JSON cannot carry it), a tensor named __metadata__, or
                      // data of the wrong size
  bool ok() const { return error.empty(); }
};

WriteResult write_safetensors(std::span<const TensorSpec> tensors, const Metadata& metadata = {});

// Only the canonical file's first bytes (N, header, padding), the data being written elsewhere
// (tests write large files sparse): `data` spans are ignored, sizes follow the shapes, and
// `data_length` receives the data buffer's size.
WriteResult write_safetensors_header(std::span<const TensorSpec> tensors, const Metadata& metadata,
                                     std::uint64_t& data_length);

// The canonical file for a parsed header's content, taking each tensor's bytes from the data
// buffer at its data_offsets. The table must come from a valid file.
WriteResult rewrite_canonical(const TensorTable& table, std::span<const std::byte> data);

}  // namespace tensorgate
