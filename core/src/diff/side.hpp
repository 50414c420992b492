#pragma once
// One side of the diff as a list of tensors, whatever its files' format: each with its name,
// dtype, shape (outermost first), element encoding and where its bytes are. One collector per
// kind of summary fills it from the validated reports (side.cpp: safetensors, GGUF, PyTorch
// checkpoints' state dicts; side_onnx.cpp: ONNX initializers; side_ggml.cpp: legacy GGML
// tensor records; side_tflite.cpp: TFLite's constant tensors; side_ctranslate2.cpp: a
// CTranslate2 model.bin's variables; side_flax.cpp: Flax arrays); a new format is one more
// collector and nothing else.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/diff.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/openvino.hpp"

namespace tensorgate::detail::diff {

// How a tensor's elements are stored, as far as the diff decodes them.
enum class ElementKind : std::uint8_t {
  f64, f32, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64, boolean, q8_0, q4_0,
  opaque,  // compared as bytes only, block by block (other quantized and F8 types, big-endian GGUF)
};
struct Encoding {
  ElementKind kind = ElementKind::opaque;
  std::uint32_t block = 1;        // elements per block
  std::uint32_t block_bytes = 1;  // bytes per block
  friend bool operator==(const Encoding&, const Encoding&) = default;
};
Encoding safetensors_encoding(Dtype d);
Encoding ggml_encoding(std::uint32_t ggml_type, bool big_endian);

struct SideTensor {
  DiffTensor info;
  Encoding encoding;
  Format format = Format::safetensors;
  // Its dtype as the safetensors table names the same type (ONNX's FLOAT, TFLite's FLOAT32,
  // CTranslate2's float16, NumPy's float32, OpenVINO's f32), set by its collector from the
  // format's own type table; empty where the dtype is its own name. Views a static table.
  std::string_view common;
  std::uint64_t position = 0;  // where its bytes start in its file
  std::uint64_t elements = 0;
  std::string_view values_unread;  // why --values cannot read its bytes (empty: it can)
};

struct Side {
  const DiffSide* in = nullptr;
  std::vector<SideTensor> tensors;  // file by file, each in its table's order
  bool all_safetensors = true, all_gguf = true;
  const GgufSummary* first_gguf = nullptr;
};

// Fills `out` from the side's reports. The reason when a file cannot be read as tensors (it is
// invalid, or its format has no tensor table); nothing otherwise. A name a second file of the
// side holds again is kept once, the first time (the directory's SH findings say so).
std::optional<std::string> collect_side(const DiffSide& in, Side& out);

// side_onnx.cpp: an ONNX model's initializers, each whose name `first` has not seen before.
void collect_onnx(const OnnxSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first);

// side_ggml.cpp: a legacy GGML file's tensor records, each whose name `first` has not seen before.
void collect_ggml(const GgmlSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first);
// side_tflite.cpp: a TFLite model's constant tensors, each whose name `first` has not seen before.
void collect_tflite(const TfliteSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first);

// side_ctranslate2.cpp: a CTranslate2 model.bin's variables, each whose name `first` has not seen
// before.
void collect_ctranslate2(const CTranslate2Summary& s, std::size_t file, Side& out,
                         const std::function<bool(std::string_view)>& first);

// side_flax.cpp: a Flax checkpoint's arrays, each whose path `first` has not seen before.
void collect_flax(const FlaxSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first);

// side_openvino.cpp: an OpenVINO model's Const layers, each whose name `first` has not seen
// before.
void collect_openvino(const OpenVinoSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first);

// A tensor's dtype as the diff compares it across formats: SideTensor::common where its
// collector set one, its own name otherwise.
inline std::string_view common_dtype(const SideTensor& t) { return t.common.empty() ? std::string_view(t.info.dtype) : t.common; }

// Whether two tensors have one shape. A GGUF cannot hold a 0-dimensional tensor: across formats
// a safetensors scalar is a GGUF [1].
bool same_shape(const SideTensor& a, const SideTensor& b);

// The side's summary for the report: files, findings, totals.
DiffSideSummary summarize_side(const DiffSide& in, const Side& side);

}  // namespace tensorgate::detail::diff
