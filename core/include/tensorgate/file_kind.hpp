#pragma once
// What a file is when it is no model format tensorgate reads (docs/rules.md, family FK): a Git
// LFS pointer, or content of no model format. Report holds these.
#include <cstdint>
#include <optional>
#include <string>

namespace tensorgate {

// A Git LFS pointer (https://git-lfs.github.com/spec/v1): the real file's digest and size.
struct LfsPointerInfo {
  std::string oid;                   // "sha256:<64 hex digits>" as the pointer says it (cut at 80 bytes)
  std::optional<std::uint64_t> size;
};

}  // namespace tensorgate
