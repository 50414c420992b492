#include "tensorgate/writer.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "canonical_json.hpp"
#include "tensorgate/utf8.hpp"
#include "uint128.hpp"

namespace tensorgate {
namespace {

// Number of bytes of `shape` x `dtype`, or false when it overflows or is not whole bytes.
bool byte_size(std::span<const std::uint64_t> shape, Dtype dtype, std::uint64_t& out) {
  detail::uint128 bits = dtype_info(dtype).bits;
  bool zero = std::find(shape.begin(), shape.end(), 0) != shape.end();
  if (zero) {
    out = 0;
    return true;
  }
  for (const std::uint64_t d : shape) {
    bits *= d;
    if (bits > (static_cast<detail::uint128>(UINT64_MAX) << 3)) return false;
  }
  if (bits % 8) return false;
  out = static_cast<std::uint64_t>(bits / 8);
  return true;
}

}  // namespace

WriteResult write_safetensors(std::span<const TensorSpec> tensors, const Metadata& metadata) {
  WriteResult result;
  std::vector<const TensorSpec*> order;
  for (const TensorSpec& t : tensors) order.push_back(&t);
  std::sort(order.begin(), order.end(), [](const TensorSpec* a, const TensorSpec* b) {
    return a->dtype != b->dtype ? a->dtype < b->dtype : a->name < b->name;
  });
  for (const TensorSpec* t : order) {
    if (!is_valid_utf8(t->name)) {
      result.error = "tensor name is not valid UTF-8";
      return result;
    }
  }
  for (const auto& [key, value] : metadata) {
    if (!is_valid_utf8(key) || !is_valid_utf8(value)) {
      result.error = "metadata is not valid UTF-8";
      return result;
    }
  }
  // Names must be unique across dtypes too: the canonical order only sorts them within one.
  std::unordered_set<std::string_view> names;
  for (const TensorSpec* t : order) {
    if (!names.insert(t->name).second) {
      result.error = "duplicate tensor name";
      return result;
    }
  }
  std::vector<const std::pair<std::string, std::string>*> meta;
  for (const auto& kv : metadata) meta.push_back(&kv);
  std::sort(meta.begin(), meta.end(), [](auto* a, auto* b) { return a->first < b->first; });
  for (std::size_t i = 1; i < meta.size(); ++i) {
    if (meta[i - 1]->first == meta[i]->first) {
      result.error = "duplicate metadata key";
      return result;
    }
  }

  std::string header = "{";
  if (!meta.empty()) {
    header += "\"__metadata__\":{";
    for (std::size_t i = 0; i < meta.size(); ++i) {
      if (i) header += ',';
      detail::append_json_string(header, meta[i]->first);
      header += ':';
      detail::append_json_string(header, meta[i]->second);
    }
    header += '}';
    if (!order.empty()) header += ',';
  }
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const TensorSpec& t = *order[i];
    std::uint64_t size = 0;
    if (!byte_size(t.shape, t.dtype, size) || size != t.data.size()) {
      result.error = "tensor data does not match its shape and dtype";
      return result;
    }
    if (i) header += ',';
    detail::append_tensor_entry(header, t.name, t.dtype, t.shape, offset, offset + size);
    offset += size;
  }
  header += '}';
  header.append(detail::canonical_padding(header.size()), ' ');

  std::string& out = result.bytes;
  out.reserve(8 + header.size() + offset);
  std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  out += header;
  for (const TensorSpec* t : order) out.append(reinterpret_cast<const char*>(t->data.data()), t->data.size());
  return result;
}

WriteResult rewrite_canonical(const TensorTable& table, std::span<const std::byte> data) {
  std::vector<TensorSpec> specs;
  specs.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const TensorView v = table[i];
    if (v.end > data.size()) return WriteResult{{}, "data buffer shorter than the tensors"};
    specs.push_back(TensorSpec{std::string(v.name), v.dtype, {v.shape.begin(), v.shape.end()},
                               data.subspan(v.begin, v.end - v.begin)});
  }
  Metadata metadata;
  for (std::size_t i = 0; i < table.metadata_size(); ++i) {
    const auto [k, val] = table.metadata(i);
    metadata.emplace_back(k, val);
  }
  return write_safetensors(specs, metadata);
}

}  // namespace tensorgate
