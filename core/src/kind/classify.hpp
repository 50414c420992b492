#pragma once
// What a file is, from its first bytes (docs/rules.md, "What else a repository holds"): the
// formats whose magic is certain first (GGUF, zip, NumPy, HDF5, a Git LFS pointer's first line),
// then safetensors (a length of at most 100,000,000 and a header that starts, after JSON
// whitespace, with '{': a valid safetensors may begin with bytes that look like a pickle
// PROTO), then HDF5 after a user block (its signature at 512, 1024 or 2048), then a Flax checkpoint (a
// msgpack map whose first key is a string: flax/content_probe.hpp), then pickle (the pickle scanner runs a few opcodes without a fault), then a
// TensorFlow SavedModel or Keras metadata file (savedmodel/content_probe.hpp), then ONNX
// (ir_version first, then a field of ModelProto: onnx/content_probe.hpp), then a pickle whose
// PROTO 2 or above starts a stream that breaks early, then a safetensors file with a length past the
// bound ('{' after it), then tar (a first block Python's tarfile accepts: torch.load tries it
// first; a tar that is also one of the above is FK.polyglot), then a CTranslate2 model.bin (a
// version 1-6 and a spec name: ctranslate2/content_probe.hpp), then a safetensors file broken
// early (a small length), then unknown. The decision depends on the bytes only, never on how
// they arrive.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tensorgate/file_kind.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::detail::kind {

inline constexpr std::size_t kPrefix = 4096;  // the most any decision looks at

struct Classification {
  Format format = Format::unknown;
  std::string looks_like;               // unknown and empty content: what it looks like
  std::optional<LfsPointerInfo> lfs;    // an LFS pointer: what it points to
  // A compressed joblib file whose first bytes inflated to nothing yet (bzip2 and LZ4 give
  // nothing before a whole block): a pickle only once its first inflated byte is PROTO, which
  // the validator finds out (auto_validator.cpp); until then `looks_like` says what it is.
  bool compressed_pending = false;
};

// `complete`: the prefix is the whole input or kPrefix bytes long. Without it, a decision is
// given only where more bytes cannot change it (a magic, a safetensors header start).
std::optional<Classification> classify(std::string_view prefix, bool complete);

// "an HTML page", "text", "JSON", "gzip-compressed data", "binary data", ...
std::string describe_unknown(std::string_view prefix);
std::optional<LfsPointerInfo> parse_lfs_pointer(std::string_view text);
bool starts_like_lfs_pointer(std::string_view prefix);

}  // namespace tensorgate::detail::kind
