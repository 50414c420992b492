#pragma once
// The report's cuts: every string a report echoes from a file (metadata keys and values, tensor
// names) goes through Truncations::cut, which returns it whole or cut at
// ReportLimits::max_string_bytes on a UTF-8 boundary and remembers the cut (what, its key, the
// full length, the SHA-256 of the full value). The summary then says so in "truncated"
// (docs/report.schema.json), with the entries of the inventory and the metadata map left out.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/json_writer.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail {

class Truncations {
 public:
  explicit Truncations(const ReportLimits& limits) : limits_(limits) {}

  // `s`, or its first max_string_bytes bytes (never splitting a UTF-8 sequence). `field` says
  // what it is ("metadata value"); `key` names it (the metadata key, or empty for a name).
  std::string_view cut(std::string_view s, std::string_view field, std::string_view key = {});

  // A cut made before the report (a GGUF summary string kept at its first 4096 bytes).
  void add_cut(std::string_view field, std::string_view key, std::uint64_t bytes, std::string sha256);

  void omit_tensors(std::uint64_t n) { tensors_omitted_ += n; }
  void omit_metadata(std::uint64_t n) { metadata_omitted_ += n; }
  const ReportLimits& limits() const { return limits_; }

  // "truncated": null when nothing was cut or left out, else the object.
  void write(JsonWriter& w) const;

 private:
  struct Cut {
    std::string field, key, sha256;
    std::uint64_t bytes = 0;
  };
  ReportLimits limits_;
  std::vector<Cut> cuts_;
  std::uint64_t cuts_more_ = 0;
  std::uint64_t tensors_omitted_ = 0, metadata_omitted_ = 0;
};

}  // namespace tensorgate::detail
