#pragma once
// What every validator's report says before its summary: the format, the bytes seen, the
// findings, why it stopped early if it did, and the verdict they make (no error, not aborted).
#include <cstdint>
#include <optional>
#include <utility>

#include "common/finding_list.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::detail {

inline Report report_of(Format format, std::uint64_t bytes_seen, const FindingList& findings,
                        std::optional<Aborted> aborted) {
  Report r;
  r.format = format;
  r.bytes_seen = bytes_seen;
  r.findings = findings.items();
  r.findings_dropped = findings.dropped();
  r.aborted = std::move(aborted);
  r.valid = !findings.has_errors() && !r.aborted;
  return r;
}

}  // namespace tensorgate::detail
