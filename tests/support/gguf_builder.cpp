#include "gguf_builder.hpp"

#include <cstring>

#include "tensorgate/gguf.hpp"

namespace tgtest {
namespace {

__extension__ typedef unsigned __int128 u128;

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return a == 0 ? v : (v + a - 1) / a * a; }

}  // namespace

GgufBytes& GgufBytes::put(std::uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) {
    const unsigned shift = 8 * (big_endian_ ? bytes - 1 - i : i);
    out_ += static_cast<char>((v >> shift) & 0xff);
  }
  return *this;
}

GgufBytes& GgufBytes::f32(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return u32(bits);
}

GgufBytes& GgufBytes::header(std::uint64_t n_tensors, std::uint64_t n_kv) {
  raw("GGUF");
  u32(version_);
  return len(n_tensors).len(n_kv);
}

GgufBuilder& GgufBuilder::kv_raw(std::string_view key, std::uint32_t type, std::string_view value) {
  GgufBytes b = enc();
  b.str(key).u32(type).raw(value);
  return kv_bytes(b.bytes());
}

GgufBuilder& GgufBuilder::kv_array(std::string_view key, std::uint32_t elem, std::uint64_t count,
                                   std::string_view elements) {
  GgufBytes v = enc();
  v.u32(elem).len(count).raw(elements);
  return kv_raw(key, kGgufArray, v.bytes());
}

GgufBuilder& GgufBuilder::kv_strings(std::string_view key, const std::vector<std::string>& v) {
  GgufBytes e = enc();
  for (const std::string& s : v) e.str(s);
  return kv_array(key, kGgufString, v.size(), e.bytes());
}

GgufBuilder& GgufBuilder::kv_u32s(std::string_view key, const std::vector<std::uint32_t>& v) {
  GgufBytes e = enc();
  for (const std::uint32_t x : v) e.u32(x);
  return kv_array(key, kGgufU32, v.size(), e.bytes());
}

GgufBuilder& GgufBuilder::kv_i32s(std::string_view key, const std::vector<std::int32_t>& v) {
  GgufBytes e = enc();
  for (const std::int32_t x : v) e.i32(x);
  return kv_array(key, kGgufI32, v.size(), e.bytes());
}

GgufBuilder& GgufBuilder::kv_f32s(std::string_view key, const std::vector<float>& v) {
  GgufBytes e = enc();
  for (const float x : v) e.f32(x);
  return kv_array(key, kGgufF32, v.size(), e.bytes());
}

std::optional<std::uint64_t> ggml_tensor_bytes(std::uint32_t type, const std::vector<std::uint64_t>& dims) {
  const tensorgate::GgmlTypeInfo* t = tensorgate::ggml_type_info(type);
  if (!t) return std::nullopt;
  u128 elements = 1;
  for (const std::uint64_t d : dims) {
    elements *= d;
    if (elements > UINT64_MAX) return std::nullopt;
  }
  const u128 bytes = elements / t->block_size * t->type_size;
  if (bytes > UINT64_MAX) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

GgufBuilder& GgufBuilder::tensor(std::string_view name, std::uint32_t type, const std::vector<std::uint64_t>& dims,
                                 std::optional<std::uint64_t> offset) {
  GgufBytes b = enc();
  b.str(name).u32(static_cast<std::uint32_t>(dims.size()));
  for (const std::uint64_t d : dims) b.len(d);
  const std::uint64_t size = ggml_tensor_bytes(type, dims).value_or(0);
  const std::uint64_t at = offset.value_or(next_offset_);
  b.u32(type).u64(at);
  if (at + size >= at) {  // leave wrapping offsets out of the default data
    next_offset_ = align_up(at + size, alignment_);
    if (at + size > data_end_ && at + size < (std::uint64_t{1} << 32)) data_end_ = at + size;
  }
  return tensor_bytes(b.bytes());
}

std::uint64_t GgufBuilder::data_start() const {
  const std::uint64_t end = GgufBytes(version_, big_endian_).header(0, 0).size() + kvs_.size() + infos_.size();
  return pad_ ? align_up(end, alignment_) : end;
}

std::uint64_t GgufBuilder::data_size() const { return align_up(data_end_, alignment_); }

std::string GgufBuilder::metadata() const {
  GgufBytes b(version_, big_endian_);
  b.header(tensor_count_.value_or(n_tensors_), kv_count_.value_or(n_kv_)).raw(kvs_).raw(infos_);
  std::string out = b.bytes();
  out.resize(static_cast<std::size_t>(data_start()), '\0');
  return out;
}

std::string GgufBuilder::build() const {
  std::string out = metadata();
  if (data_) out += *data_;
  else out.append(static_cast<std::size_t>(data_size()), '\0');
  out.append(trailing_, '\x5a');
  return out;
}

std::string gguf_minimal(std::size_t tensors) {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  for (std::size_t i = 0; i < tensors; ++i) b.tensor("t" + std::to_string(i), 0, {8});
  return b.build();
}

}  // namespace tgtest
