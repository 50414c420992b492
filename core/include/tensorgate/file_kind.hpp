#pragma once
// What a file is when it is no model format tensorgate reads (docs/rules.md, family FK): a Git
// LFS pointer, or content of no model format. A report's summary is one of these.
#include <cstdint>
#include <optional>
#include <string>

#include "tensorgate/summary.hpp"

namespace tensorgate {

// A Git LFS pointer (https://git-lfs.github.com/spec/v1): the real file's digest and size.
struct LfsPointerInfo {
  std::string oid;                   // "sha256:<64 hex digits>" as the pointer says it (cut at 80 bytes)
  std::optional<std::uint64_t> size;
};
const SummaryOps& summary_ops(const LfsPointerInfo*);

// Content of no model format, empty or not: what it looks like ("HTML", "text", "JSON", ...).
struct UnknownContent {
  std::string looks_like;
  bool empty = false;  // no bytes at all (FK.empty)
};
const SummaryOps& summary_ops(const UnknownContent*);

}  // namespace tensorgate
