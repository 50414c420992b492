#pragma once
// The .npy push validator: one NpyScanner, its findings and summary as a Report (format npy).
// Made by make_npy_validator (tensorgate/npy.hpp).
#include <cstdint>
#include <span>

#include "common/finding_list.hpp"
#include "npy/scanner.hpp"
#include "tensorgate/npy.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::npy {

class NpyValidator final : public Validator {
 public:
  NpyValidator(const Limits& limits, MemoryBudget* budget);

  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return finished_ || scanner_.in_data() ? 0 : 1 << 16; }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  Progress progress() const;
  Report report() const;

  FindingList findings_;
  NpyScanner scanner_;
  std::uint64_t bytes_seen_ = 0;
  bool finished_ = false;
};

}  // namespace tensorgate::detail::npy
