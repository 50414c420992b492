// STC2: the canonical text of one tensor entry.
#include "safetensors/stc2_canonical_json.hpp"

namespace tensorgate::detail {

void append_tensor_entry(std::string& out, std::string_view name, Dtype dtype,
                         std::span<const std::uint64_t> shape, std::uint64_t begin,
                         std::uint64_t end) {
  append_json_string(out, name);
  out += ":{\"dtype\":\"";
  out += dtype_info(dtype).name;
  out += "\",\"shape\":[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ',';
    append_u64(out, shape[i]);
  }
  out += "],\"data_offsets\":[";
  append_u64(out, begin);
  out += ',';
  append_u64(out, end);
  out += "]}";
}

}  // namespace tensorgate::detail
