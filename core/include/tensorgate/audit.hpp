#pragma once
// The conversion audit (rule family AU, docs/audit.md): proves, tensor by tensor, that
// a GGUF file holds the checkpoint it was converted from. Names are mapped through the
// architecture table, GGUF's reversed dimension order is undone, the converter's q/k row
// permutation is applied to the source rows, widened tensors are compared after exact widening,
// lossy ones within a documented threshold per type, generated tensors (rope_freqs.weight)
// against config.json, and the GGUF metadata against config.json.
//
// Like every validator of the core, the audit opens nothing: the caller hands it the validated
// reports and a ByteSource per file, and the audit reads byte ranges into two buffers of
// Limits::audit.chunk_bytes each. No tensor is ever held whole, so a 6 GB pair costs what a 6 MB
// one does. The GGUF is read once, in order; the source is read by tensor (and, for q and k, by
// runs of rows), each byte once.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate {

// Reads bytes of one file for the audit.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills `out` with the bytes at `offset`; false on an I/O error or when the file ends first
  // (it changed after it was validated). The audit stops at the first false.
  virtual bool read(std::uint64_t offset, std::span<std::byte> out) = 0;
};

// One weights file of the source model.
struct AuditSource {
  std::string name;             // the file name inside the source directory
  const Report* report;         // its validation report (a valid safetensors report)
  ByteSource* bytes;            // its bytes
  std::uint64_t file_size = 0;  // for the byte accounting
};

struct AuditInput {
  std::optional<std::string_view> config_json;  // the source's config.json
  const DirectoryReport* directory = nullptr;   // the source directory's own checks, when made
  std::vector<AuditSource> sources;             // the files that make up the model
  const Report* gguf = nullptr;                 // the GGUF file's validation report
  ByteSource* gguf_bytes = nullptr;
  std::uint64_t gguf_file_size = 0;
};

// What the audit concluded about one tensor (a row of the report's table).
enum class AuditVerdict : std::uint8_t {
  exact,         // equal: byte for byte, or after exact widening
  within,        // lossy target, every element within the type's threshold
  beyond,        // lossy target, some element beyond the threshold (AU.lossy-threshold)
  mismatch,      // values differ (AU.value-mismatch)
  shape,         // shapes disagree: values not compared (AU.shape)
  dtype,         // the GGUF type cannot hold the source's values (AU.dtype)
  not_compared,  // a type the audit does not decode (AU.not-compared)
  generated,     // a generated tensor that matches what config.json implies
  wrong,         // a generated tensor that does not (AU.rope-freqs)
  missing,       // a source tensor without its GGUF counterpart (AU.missing-tensor)
  unexplained,   // a GGUF tensor nothing explains (AU.unexplained-tensor)
  unmapped,      // a source tensor the architecture table does not map (AU.unmapped-tensor)
};
std::string_view audit_verdict_name(AuditVerdict v);

struct AuditTensor {
  std::string source;  // empty: generated or unexplained
  std::string gguf;    // empty: missing or unmapped
  std::string source_dtype, gguf_type;   // "BF16", "Q8_0"; empty when absent
  std::vector<std::uint64_t> shape;      // in the source's order (GGUF's reversed)
  std::string transform;                 // "kept", "widened", "permuted q (8 heads)", ...
  AuditVerdict verdict = AuditVerdict::exact;
  std::optional<double> max_abs_error, max_rel_error;  // lossy comparisons only
  std::uint64_t differing = 0;           // elements that differ or exceed the threshold
  std::uint64_t source_bytes = 0, gguf_bytes = 0;
};

// The byte reconciliation: tensor data on both sides, and what explains the difference.
struct AuditBytesLine {
  std::string what;  // "BF16 -> F32 widened", "generated rope_freqs.weight", "missing", ...
  std::uint64_t tensors = 0;
  std::uint64_t source_bytes = 0, gguf_bytes = 0;
};
struct AuditBytes {
  std::uint64_t source_files = 0, source_file_bytes = 0, source_headers = 0, source_tensor_bytes = 0;
  std::uint64_t gguf_file_bytes = 0, gguf_metadata_bytes = 0, gguf_tensor_bytes = 0, gguf_padding = 0;
  std::vector<AuditBytesLine> lines;  // tensor data only; the lines sum to the difference
};

struct AuditCounts {
  std::uint64_t exact = 0, lossy = 0, not_compared = 0, generated = 0, failed = 0;
};

struct AuditReport {
  bool faithful = false;  // no error finding: every tensor and key accounted for
  std::string architecture;
  std::vector<Finding> findings;
  std::uint64_t findings_dropped = 0;
  std::vector<AuditTensor> tensors;  // GGUF order, then the source tensors it lacks
  AuditCounts counts;
  AuditBytes bytes;
  std::uint64_t bytes_read = 0;       // tensor bytes read from both sides
  std::optional<std::string> io_error;  // a read failed: no verdict (exit status 2)
  std::string source_path;            // set by the caller, for the report writers
};

// Bounded by Limits::audit, Limits::directory (config.json) and Limits::max_findings.
AuditReport audit_conversion(const AuditInput& input, const Limits& limits = {});

}  // namespace tensorgate
