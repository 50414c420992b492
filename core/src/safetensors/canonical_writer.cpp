// The canonical writer (STC1-STC4): a file byte-identical to the reference library's serialize.
#include "tensorgate/safetensors/writer.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "safetensors/stc2_canonical_json.hpp"
#include "tensorgate/utf8.hpp"
#include "tensorgate/safetensors/summary.hpp"
#include "common/uint128.hpp"

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

// What the canonical writer refuses: names or metadata that JSON cannot carry, duplicates.
std::string refusal(const std::vector<const TensorSpec*>& order, const Metadata& metadata) {
  for (const TensorSpec* t : order) {
    if (!is_valid_utf8(t->name)) return "tensor name is not valid UTF-8";
    // The header's one reserved key: a tensor of that name would be read as the metadata.
    if (t->name == "__metadata__") return "tensor name __metadata__ is reserved";
  }
  for (const auto& [key, value] : metadata)
    if (!is_valid_utf8(key) || !is_valid_utf8(value)) return "metadata is not valid UTF-8";
  // Names must be unique across dtypes too: the canonical order only sorts them within one.
  std::unordered_set<std::string_view> names;
  for (const TensorSpec* t : order)
    if (!names.insert(t->name).second) return "duplicate tensor name";
  std::unordered_set<std::string_view> keys;
  for (const auto& kv : metadata)
    if (!keys.insert(kv.first).second) return "duplicate metadata key";
  return {};
}

struct Layout {
  std::vector<const TensorSpec*> order;  // canonical order (STC1)
  std::string prefix;                    // N, the header text, the padding (STC2-STC4)
  std::uint64_t data_length = 0;
  std::string error;
};

// The canonical header for `tensors`; with `check_data`, each tensor's bytes must match its
// shape and dtype.
Layout plan(std::span<const TensorSpec> tensors, const Metadata& metadata, bool check_data) {
  Layout l;
  for (const TensorSpec& t : tensors) l.order.push_back(&t);
  std::sort(l.order.begin(), l.order.end(), [](const TensorSpec* a, const TensorSpec* b) {
    return a->dtype != b->dtype ? a->dtype < b->dtype : a->name < b->name;
  });
  if (l.error = refusal(l.order, metadata); !l.error.empty()) return l;
  std::vector<const std::pair<std::string, std::string>*> meta;
  for (const auto& kv : metadata) meta.push_back(&kv);
  std::sort(meta.begin(), meta.end(), [](auto* a, auto* b) { return a->first < b->first; });

  std::string header = "{";
  if (!meta.empty()) {
    header += "\"__metadata__\":{";
    for (std::size_t i = 0; i < meta.size(); ++i) {
      if (i) header += ',';
      detail::append_json_string(header, meta[i]->first);
      header += ':';
      detail::append_json_string(header, meta[i]->second);
    }
    header += l.order.empty() ? "}" : "},";
  }
  for (std::size_t i = 0; i < l.order.size(); ++i) {
    const TensorSpec& t = *l.order[i];
    std::uint64_t size = 0;
    if (!byte_size(t.shape, t.dtype, size) || (check_data && size != t.data.size())) {
      l.error = "tensor data does not match its shape and dtype";
      return l;
    }
    if (i) header += ',';
    detail::append_tensor_entry(header, t.name, t.dtype, t.shape, l.data_length, l.data_length + size);
    l.data_length += size;
  }
  header += '}';
  header.append(detail::canonical_padding(header.size()), ' ');
  const std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) l.prefix += static_cast<char>((n >> (8 * i)) & 0xff);
  l.prefix += header;
  return l;
}

}  // namespace

WriteResult write_safetensors(std::span<const TensorSpec> tensors, const Metadata& metadata) {
  Layout l = plan(tensors, metadata, true);
  if (!l.error.empty()) return WriteResult{{}, std::move(l.error)};
  WriteResult result{std::move(l.prefix), {}};
  result.bytes.reserve(result.bytes.size() + l.data_length);
  for (const TensorSpec* t : l.order)
    result.bytes.append(reinterpret_cast<const char*>(t->data.data()), t->data.size());
  return result;
}

WriteResult write_safetensors_header(std::span<const TensorSpec> tensors, const Metadata& metadata,
                                     std::uint64_t& data_length) {
  Layout l = plan(tensors, metadata, false);
  data_length = l.data_length;
  return WriteResult{std::move(l.prefix), std::move(l.error)};
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
