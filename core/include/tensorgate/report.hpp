#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/summary.hpp"

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
  // What the format's reader says of the file, its type the format's own (its public header):
  // SafetensorsSummary once the header was understood, GgufSummary once the tensor infos were
  // read without error, PickleSummary, ZipSummary, NpySummary, TarSummary; LfsPointerInfo and
  // UnknownContent (tensorgate/file_kind.hpp) for the kinds of no format. Ask with
  // `summary.get<GgufSummary>()`.
  Summary summary;
  std::optional<Aborted> aborted;

  bool has(std::string_view family_or_id) const;  // any finding whose id or family matches
};

}  // namespace tensorgate
