#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/file_kind.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/npy.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/safetensors/summary.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate {

// What a file is, as its content says (kind/detect.cpp): a model format, or a kind of no model
// format (FK.lfs-pointer, FK.empty, FK.unknown). Both lists are tensorgate/formats.def.
enum class Format : unsigned char {
#define TENSORGATE_FORMAT(id, name) id,
#define TENSORGATE_KIND(id, name) id,
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
#undef TENSORGATE_KIND
};
constexpr std::string_view format_name(Format f) {
  switch (f) {
#define TENSORGATE_FORMAT(id, name) \
  case Format::id:                  \
    return name;
#define TENSORGATE_KIND(id, name) TENSORGATE_FORMAT(id, name)
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
#undef TENSORGATE_KIND
  }
  return "unknown";
}
// A model format: it has a validator of its own and a caller may choose it.
constexpr bool is_model_format(Format f) {
  switch (f) {
#define TENSORGATE_FORMAT(id, name) \
  case Format::id:                  \
    return true;
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
    default: return false;
  }
}

// Validation stopped because one of the caller's own limits (not the format's) was reached:
// a capacity answer (HTTP 413/503), not a verdict on the file.
enum class AbortKind : unsigned char {
  limit,          // a size or count this checker refuses (the service answers 413)
  memory_budget,  // the memory shared with other checks is spent for now (503, retry later)
};
struct Aborted {
  std::string limit;    // stable name: "header-bytes", "header-memory-budget", ...
  std::string message;
  AbortKind kind = AbortKind::limit;
};

struct Report {
  Format format = Format::safetensors;
  bool valid = false;
  std::optional<bool> canonical;  // set for valid safetensors files
  std::vector<Finding> findings;  // in the order they were established
  std::uint64_t findings_dropped = 0;
  std::uint64_t bytes_seen = 0;
  std::optional<SafetensorsSummary> safetensors;  // set once the header was understood
  std::optional<GgufSummary> gguf;                // set once a GGUF file's tensor infos were read without error
  std::optional<PickleSummary> pickle;            // a pickle stream (alone or the legacy torch stream)
  std::optional<ZipSummary> zip;                  // a zip archive (a PyTorch archive's data.pkl inside)
  std::optional<NpySummary> npy;                  // a NumPy .npy file
  std::optional<TarSummary> tar;                  // a tar archive (torch.load's legacy layout, or another)
  std::optional<LfsPointerInfo> lfs_pointer;      // format lfs-pointer: what it points to
  std::optional<std::string> looks_like;          // format unknown: "HTML", "text", "JSON", ...
  std::optional<Aborted> aborted;

  bool has(std::string_view family_or_id) const;  // any finding whose id or family matches
};

}  // namespace tensorgate
