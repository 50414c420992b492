#pragma once
// Builds GGUF bytes for tests, fuzz seeds and benchmarks: valid files, and any malformation a
// test needs (raw pairs, raw tensor infos, wrong counts, short data). No GoogleTest here, so
// that bench/ can use it too; see gguf_check.hpp for the test-side helpers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "tensorgate/gguf.hpp"

namespace tgtest {

// GGUF value types.
enum GgufType : std::uint32_t {
  kGgufU8 = 0, kGgufI8 = 1, kGgufU16 = 2, kGgufI16 = 3, kGgufU32 = 4, kGgufI32 = 5, kGgufF32 = 6,
  kGgufBool = 7, kGgufString = 8, kGgufArray = 9, kGgufU64 = 10, kGgufI64 = 11, kGgufF64 = 12,
};

// GGUF primitives in one version's widths (counts, lengths and dims are u32 in version 1) and
// one byte order.
class GgufBytes {
 public:
  explicit GgufBytes(std::uint32_t version = 3, bool big_endian = false)
      : version_(version), big_endian_(big_endian) {}

  GgufBytes& raw(std::string_view bytes) { out_ += bytes; return *this; }
  GgufBytes& u8(std::uint8_t v) { return put(v, 1); }
  GgufBytes& u16(std::uint16_t v) { return put(v, 2); }
  GgufBytes& u32(std::uint32_t v) { return put(v, 4); }
  GgufBytes& u64(std::uint64_t v) { return put(v, 8); }
  GgufBytes& i32(std::int32_t v) { return put(static_cast<std::uint32_t>(v), 4); }
  GgufBytes& f32(float v);
  GgufBytes& len(std::uint64_t n) { return put(n, version_ == 1 ? 4 : 8); }  // a count, length or dim
  GgufBytes& str(std::string_view s) { return len(s.size()).raw(s); }
  // Magic, version and both counts.
  GgufBytes& header(std::uint64_t n_tensors, std::uint64_t n_kv);

  const std::string& bytes() const { return out_; }
  std::size_t size() const { return out_.size(); }
  std::uint32_t version() const { return version_; }
  bool big_endian() const { return big_endian_; }

 private:
  GgufBytes& put(std::uint64_t v, unsigned bytes);
  std::uint32_t version_;
  bool big_endian_;
  std::string out_;
};

class GgufBuilder {
 public:
  explicit GgufBuilder(std::uint32_t version = 3, bool big_endian = false)
      : version_(version), big_endian_(big_endian) {}

  // An encoder in this file's widths and byte order, for raw values and pairs.
  GgufBytes enc() const { return GgufBytes(version_, big_endian_); }

  // Key-value pairs, in file order.
  GgufBuilder& kv_raw(std::string_view key, std::uint32_t type, std::string_view value);
  GgufBuilder& kv_u8(std::string_view key, std::uint8_t v) { return kv_raw(key, kGgufU8, enc().u8(v).bytes()); }
  GgufBuilder& kv_u32(std::string_view key, std::uint32_t v) { return kv_raw(key, kGgufU32, enc().u32(v).bytes()); }
  GgufBuilder& kv_i32(std::string_view key, std::int32_t v) { return kv_raw(key, kGgufI32, enc().i32(v).bytes()); }
  GgufBuilder& kv_u64(std::string_view key, std::uint64_t v) { return kv_raw(key, kGgufU64, enc().u64(v).bytes()); }
  GgufBuilder& kv_f32(std::string_view key, float v) { return kv_raw(key, kGgufF32, enc().f32(v).bytes()); }
  GgufBuilder& kv_bool(std::string_view key, std::uint8_t raw) { return kv_raw(key, kGgufBool, enc().u8(raw).bytes()); }
  GgufBuilder& kv_str(std::string_view key, std::string_view v) { return kv_raw(key, kGgufString, enc().str(v).bytes()); }
  GgufBuilder& kv_strings(std::string_view key, const std::vector<std::string>& v);
  GgufBuilder& kv_u32s(std::string_view key, const std::vector<std::uint32_t>& v);
  GgufBuilder& kv_i32s(std::string_view key, const std::vector<std::int32_t>& v);
  GgufBuilder& kv_f32s(std::string_view key, const std::vector<float>& v);
  // An array of `count` elements of `elem` type whose encoded elements are `elements`.
  GgufBuilder& kv_array(std::string_view key, std::uint32_t elem, std::uint64_t count, std::string_view elements);
  // general.alignment as a u32, and the padding it implies.
  GgufBuilder& alignment(std::uint32_t a) {
    alignment_ = a;
    return kv_u32("general.alignment", a);
  }
  // The padding to use without adding a key (for files whose general.alignment is odd).
  GgufBuilder& layout_alignment(std::uint64_t a) { alignment_ = a; return *this; }
  // Bytes counted as one pair (anything: a test of malformed pairs).
  GgufBuilder& kv_bytes(std::string_view raw) {
    kvs_ += raw;
    ++n_kv_;
    return *this;
  }

  // Tensor infos, in file order. Without an offset, the running sum of padded sizes (as ggml
  // writes it). ggml type ids as in ggml; dims ne0 first.
  GgufBuilder& tensor(std::string_view name, std::uint32_t type, const std::vector<std::uint64_t>& dims,
                      std::optional<std::uint64_t> offset = std::nullopt);
  GgufBuilder& tensor_bytes(std::string_view raw) {  // bytes counted as one tensor info
    infos_ += raw;
    ++n_tensors_;
    return *this;
  }

  // Overrides.
  GgufBuilder& counts(std::optional<std::uint64_t> n_tensors, std::optional<std::uint64_t> n_kv) {
    tensor_count_ = n_tensors;
    kv_count_ = n_kv;
    return *this;
  }
  GgufBuilder& data(std::string d) { data_ = std::move(d); return *this; }  // instead of zeros
  GgufBuilder& trailing(std::size_t n) { trailing_ = n; return *this; }
  GgufBuilder& no_padding() { pad_ = false; return *this; }  // data right after the infos

  // The file. Data: zeros up to the last tensor's end rounded up to the alignment.
  std::string build() const;
  // The header, pairs, tensor infos and padding, without any data (benchmarks of large files).
  std::string metadata() const;
  // The running sum of the padded tensor sizes: the data a file written by ggml carries.
  std::uint64_t padded_data_size() const { return next_offset_; }
  // Where the data section starts in build()'s output.
  std::uint64_t data_start() const;
  std::uint64_t data_size() const;  // the default data's size

 private:
  std::uint32_t version_;
  bool big_endian_;
  std::string kvs_, infos_;
  std::uint64_t n_kv_ = 0, n_tensors_ = 0;
  std::optional<std::uint64_t> tensor_count_, kv_count_;
  std::uint64_t alignment_ = 32;
  std::uint64_t next_offset_ = 0;
  std::uint64_t data_end_ = 0;  // the largest offset + size
  std::optional<std::string> data_;
  std::size_t trailing_ = 0;
  bool pad_ = true;
};

// The exact byte size of a tensor of a known ggml type, or nothing (unknown type, overflow).
std::optional<std::uint64_t> ggml_tensor_bytes(std::uint32_t type, const std::vector<std::uint64_t>& dims);

// A small valid file: general.architecture "llama" and `tensors` F32 tensors of 8 elements.
std::string gguf_minimal(std::size_t tensors = 1);

}  // namespace tgtest
