#pragma once
// How one source tensor's values are compared with its GGUF counterpart's, and the comparator
// that does it chunk by chunk (it never needs the tensor whole).
#include <cstdint>
#include <optional>

#include "pairing/lossy.hpp"
#include "pairing/numbers.hpp"
#include "tensorgate/safetensors/dtype.hpp"

namespace tensorgate::detail::audit {

using namespace pairing;  // the audit reads through the pairing room's decoders, name map and config

enum class Mode : std::uint8_t {
  bytes,         // the same type: byte for byte
  widen,         // a wider float type: equal after exact widening
  lossy,         // a narrower float or a block type: within the type's threshold
  not_compared,  // a type the audit does not decode
  dtype_error,   // not a conversion of these values (integers as floats, ...)
};
Mode choose_mode(Dtype source, std::uint32_t ggml_type);

// The first element that differs (or exceeds the threshold), in GGUF element order.
struct FirstDifference {
  std::uint64_t index = 0;
  std::uint64_t source_bits = 0, gguf_bits = 0;  // bytes mode: the raw elements
  double source_value = 0, gguf_value = 0;       // other modes: the decoded values
};

struct CompareStats {
  std::uint64_t differing = 0;
  std::optional<FirstDifference> first;
  double max_abs = 0, max_rel = 0;  // lossy: may be +inf (NaN against a number, overflow)
};

class Comparator {
 public:
  Comparator(Mode mode, Dtype source, std::uint32_t ggml_type);
  // `n` elements from GGUF element `first` on: `source` holds them in the source's type,
  // `gguf` in the GGUF's (whole blocks: `first` and `n` are multiples of the block size).
  void run(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first);
  const CompareStats& stats() const { return stats_; }
  const Threshold* threshold() const { return threshold_; }

 private:
  void run_bytes(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first);
  void run_widen(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first);
  void run_lossy_float(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first);
  void run_lossy_block(const std::byte* source, const std::byte* gguf, std::uint64_t n, std::uint64_t first);
  void lossy_element(std::uint64_t index, double x, double y, double scale);
  void note(std::uint64_t index, double x, double y);

  Mode mode_;
  unsigned elem_size_ = 0;  // bytes mode
  FloatKind src_kind_ = FloatKind::f32, gguf_kind_ = FloatKind::f32;
  std::uint32_t ggml_type_;
  const Threshold* threshold_ = nullptr;
  CompareStats stats_;
};

}  // namespace tensorgate::detail::audit
