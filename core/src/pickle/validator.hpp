#pragma once
// The pickle push validator: a stream of pickles through one Scanner, its findings and its
// summary as a Report (format pickle).
#include <optional>

#include "common/finding_list.hpp"
#include "pickle/scanner.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::pickle {

class PickleValidator final : public Validator {
 public:
  PickleValidator(const Limits& limits, MemoryBudget* budget);

  void set_total_size(std::uint64_t) override {}  // nothing is decided from the size (docs/pickle.md)
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override;
  std::uint64_t bytes_skippable() const override;
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override;
  Report finish() override;

 private:
  Progress progress() const;
  Report report() const;

  FindingList findings_;
  Scanner scanner_;
  std::uint64_t bytes_seen_ = 0;
  bool finished_ = false;
};

}  // namespace tensorgate::detail::pickle
