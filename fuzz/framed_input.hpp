#pragma once
// Framed fuzz inputs: the targets that take several files from one input (audit_fuzzer,
// diff_fuzzer) read little-endian lengths and the bytes they announce, and hand the files to
// code that reads by offset. A short input gives what is there: lengths past its end take the rest,
// and missing length bytes read as zero, so every input decodes to something.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "tensorgate/audit.hpp"

namespace tgfuzz {

// The next `bytes` bytes of `in` as a little-endian number (at most 8), consumed.
inline std::uint64_t take_le(std::string_view& in, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes && i < in.size(); ++i) v |= std::uint64_t{static_cast<unsigned char>(in[i])} << (8 * i);
  in.remove_prefix(std::min<std::size_t>(bytes, in.size()));
  return v;
}

// The next `n` bytes of `in` (fewer when it ends first), consumed.
inline std::string_view take_bytes(std::string_view& in, std::uint64_t n) {
  const std::string_view out = in.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(n, in.size())));
  in.remove_prefix(out.size());
  return out;
}

// A file held in memory, read by offset as the audit and the diff read files: a read that would
// leave it fails, as a file that changed since it was validated does.
class MemorySource final : public tensorgate::ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  bool read(std::uint64_t offset, std::span<std::byte> out) override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset) return false;
    std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return true;
  }

 private:
  std::string_view bytes_;
};

}  // namespace tgfuzz
