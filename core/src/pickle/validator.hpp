#pragma once
// The pickle push validator: a stream of pickles through one Scanner, its findings and its
// summary as a Report (format pickle). A file whose first bytes are a compressor's, as
// joblib.load tells them (pickle/compressed/framing.hpp), is a compressed joblib file: it goes
// through CompressedPickleValidator instead, which this one forwards to.
#include <memory>
#include <optional>
#include <string>

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
  bool choose(const unsigned char* p, std::size_t n);

  Limits limits_;
  MemoryBudget* budget_;
  bool chosen_ = false;
  std::string held_;                       // the first bytes, while they could begin a magic
  std::unique_ptr<Validator> compressed_;  // a compressed joblib file's validator

  FindingList findings_;
  Scanner scanner_;
  std::uint64_t bytes_seen_ = 0;
  bool finished_ = false;
};

}  // namespace tensorgate::detail::pickle
