#pragma once
// Every bound the core enforces, in one place. Defaults are the format's own limits where it has
// them; the service may lower them (a lowered bound that a file exceeds aborts validation with
// `Report::aborted`, which is a capacity answer, not a verdict on the file).
#include <cstdint>

namespace tensorgate {

struct Limits {
  // safetensors: largest header the validator buffers. The format caps N at 100,000,000 (ST1);
  // values above that are clamped to it.
  std::uint64_t max_header_bytes = 100'000'000;
  // safetensors: JSON nesting the header may use. 128 is serde_json's recursion limit, so a header
  // the reference reader parses is never refused for depth.
  std::uint32_t max_json_depth = 128;
  // Findings kept per file; further ones are counted in Report::findings_dropped.
  std::uint32_t max_findings = 1000;
  // safetensors: the hub clients refuse headers above this (warning STW.large-header).
  std::uint64_t large_header_warning = 25'000'000;
};

// The format's own cap on the safetensors header length N (ST1).
inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

}  // namespace tensorgate
