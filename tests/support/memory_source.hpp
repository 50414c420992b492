#pragma once
// A file held in memory as a ByteSource (the audit's and the diff's tests).
#include <cstring>
#include <string>

#include "tensorgate/audit.hpp"

namespace tgtest {

class MemorySource final : public tensorgate::ByteSource {
 public:
  explicit MemorySource(const std::string& bytes) : bytes_(bytes) {}
  bool read(std::uint64_t offset, std::span<std::byte> out) override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset) return false;
    std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return true;
  }

 private:
  const std::string& bytes_;
};

}  // namespace tgtest
