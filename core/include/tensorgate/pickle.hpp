#pragma once
// Python pickles (docs/rules.md, family PK; docs/pickle.md): the summary a scanned pickle
// stream gets, and the push scanner. A pickle stream is one pickle or several back to back
// (the legacy torch.save stream is five, then raw storages).
//
// A report's summary is a PickleSummary (tensorgate/summary.hpp). This header only declares Validator
// and Report: include tensorgate/validator.hpp to call the factories.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;
struct Report;

// What the lists say of a global (core/src/pickle/global_lists.def).
enum class GlobalVerdict : unsigned char { allowed, unknown, dangerous };
constexpr std::string_view global_verdict_name(GlobalVerdict v) {
  return v == GlobalVerdict::allowed ? "allowed" : v == GlobalVerdict::dangerous ? "dangerous" : "unknown";
}

// One global the stream imports, as normalised (`__builtin__ set` is builtins.set).
struct PickleGlobal {
  std::string module;
  std::string name;
  GlobalVerdict verdict = GlobalVerdict::unknown;
  std::string reason;          // why it is allowed or dangerous (the list entry's reason)
  std::uint64_t imports = 0;   // GLOBAL, STACK_GLOBAL and INST opcodes that name it
  std::uint64_t calls = 0;     // REDUCE, NEWOBJ, NEWOBJ_EX, INST and OBJ calling it, BUILD on what it made
};

// A tensor a PyTorch state dict rebuilds (torch._utils._rebuild_tensor_v2 and friends), where
// the pickle shows it: the dict key, the storage's dtype, the size tuple.
struct PickleTensor {
  std::string name;
  std::string dtype;                  // safetensors' names where they exist: F32, BF16, I64, ...
  std::vector<std::uint64_t> shape;
  std::uint64_t parameters = 0;       // the product of the shape
  std::uint64_t bytes = 0;            // parameters times the dtype's size
  std::string storage;                // the storage key (a zip entry data/<key>, or the legacy id)
  std::uint64_t storage_offset = 0;   // in elements
  bool contiguous = false;            // its stride is row-major: its bytes are one run of the storage
};

// A storage a persistent id names: ('storage', torch.<Type>Storage, key, location, numel).
struct PickleStorage {
  std::string key;
  std::string dtype;
  std::uint64_t numel = 0;
  std::string location;  // "cpu", "cuda:0", ...
  std::uint64_t bytes = 0;  // numel times the dtype's size; 0 when the dtype is unknown
};

// What the scan of a pickle stream established. Lists are bounded (Limits::pickle); what is
// past a bound is counted in the *_dropped fields.
struct PickleSummary {
  std::uint32_t protocol = 0;      // the first pickle's PROTO, or 0/1 from its opcodes
  std::uint64_t pickles = 0;       // pickles scanned (each ended by STOP)
  std::uint64_t opcodes = 0;
  bool legacy_torch = false;       // the pre-zip torch.save stream: five pickles, then storages
  std::uint64_t trailing_bytes = 0;  // after the last pickle (a legacy stream's raw storages)
  // joblib.dump's NumPy arrays, whose bytes follow their wrappers outside the opcodes, and those
  // bytes (an object array's own pickle is scanned, not counted here).
  std::uint64_t joblib_arrays = 0, joblib_array_bytes = 0;
  // A compressed joblib file (joblib.dump(..., compress=...)): the compression ("zlib",
  // "gzip", "bz2", "lzma", "xz", "lz4", or "zf" for joblib's old header; empty for a plain
  // pickle), the compressed stream's bytes and what they inflated to (the stream scanned).
  std::string compression;
  std::uint64_t compressed_bytes = 0, inflated_bytes = 0;
  std::vector<PickleGlobal> globals;  // first import order
  std::uint64_t globals_dropped = 0;
  std::vector<PickleTensor> tensors;  // stream order
  std::uint64_t tensors_dropped = 0;
  // Of every tensor, the dropped ones too; UINT64_MAX when the true count is larger.
  std::uint64_t parameters = 0, bytes = 0;
  std::vector<PickleStorage> storages;  // first mention order
  std::uint64_t storages_dropped = 0;
};
// How the reports write it (core/src/pickle/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const PickleSummary*);

std::unique_ptr<Validator> make_pickle_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

// Convenience for whole buffers (tests, fuzzers): feed everything, then finish.
Report validate_pickle(std::string_view bytes, const Limits& limits = {});

// The safetensors name of a torch storage type ("FloatStorage" -> "F32") and its size in
// bytes; nothing for names that are no storage type.
struct TorchDtype {
  std::string_view name;
  std::uint32_t bytes;
};
std::optional<TorchDtype> torch_storage_dtype(std::string_view storage_class);

}  // namespace tensorgate
