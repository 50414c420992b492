#pragma once
// The safetensors push validator: a state machine over
//   length (8 bytes) -> header (N bytes, buffered) -> data (counted, never stored).
// The header is copied in from the caller's chunks, or read straight into it (prepare()).
// Every rule but "the data ends where the tensors end" is decided when the header is complete.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/finding_list.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/safetensors/summary.hpp"

namespace tensorgate::detail {

class SafetensorsValidator final : public Validator {
 public:
  SafetensorsValidator(const Limits& limits, MemoryBudget* budget);
  ~SafetensorsValidator() override;

  void set_total_size(std::uint64_t size) override { total_size_ = size; }
  Progress feed(std::span<const std::byte> chunk) override;
  std::span<std::byte> prepare(std::size_t max) override;
  std::uint64_t bytes_wanted() const override;
  Progress skip(std::uint64_t count) override;
  // The header parse costs ~1.5 ns a byte for a plain header (st2_plain_header.hpp), ~4 for
  // others (more for tiny entries): past 1 MiB it is worth a thread.
  bool completes_heavy_step(std::uint64_t size) const override {
    return state_ == State::header && n_ > (1u << 20) && size >= bytes_wanted();
  }
  void set_deadline(Deadline* deadline) override { deadline_ = deadline; }
  Report snapshot() const override;
  Report finish() override;

 private:
  enum class State : std::uint8_t { length, header, data, stopped, finished };

  std::size_t take_length(std::span<const std::byte> chunk);
  std::size_t take_header(std::span<const std::byte> chunk);
  void count_data();
  void on_length();
  void on_header();
  bool make_room(std::size_t need);     // false: the budget refused (aborted)
  bool charge_header(std::size_t need);
  bool grow_header(std::size_t need);  // false: the budget refused (aborted)
  bool refuse_header_memory(const std::string& what);  // aborts; false
  void add_end_of_input_findings();
  void add_convention_findings();
  void add_valid_file_facts();
  struct HeaderFacts {
    std::vector<DtypeTotals> by_dtype;  // canonical order, dtypes present only
    Version oldest = kOldestCheckedReference;
    ArchitectureGuess architecture;
  };
  // `architecture`: the guess the parse made on the way, if it made one.
  HeaderFacts header_facts(const std::optional<ArchitectureGuess>& architecture) const;
  SafetensorsSummary summary() const;
  Progress progress() const;

  Limits limits_;
  MemoryBudget* budget_;
  Deadline* deadline_ = nullptr;
  std::size_t budget_held_ = 0;
  State state_ = State::length;
  std::optional<std::uint64_t> total_size_;
  std::uint64_t bytes_seen_ = 0;
  std::array<unsigned char, 8> length_bytes_{};
  std::size_t length_have_ = 0;
  std::uint64_t n_ = 0;
  HeaderBuffer header_;
  const char* huge_advised_ = nullptr;  // the buffer advised for huge pages, once it is
  FindingList findings_;
  std::optional<Aborted> aborted_;

  // Set once the header is parsed.
  std::shared_ptr<TensorTable> table_;
  bool understood_ = false;  // the header passed ST2-ST4: a summary can be given
  std::uint64_t object_end_ = 0;
  bool reference_rejects_ = false;
  std::optional<std::uint64_t> covered_;  // data length the tensors cover (ST5)
  bool end_checked_ = false;
  std::optional<bool> canonical_;  // decided by finish() for valid files
  HeaderFacts facts_;              // set once the header is understood
};

}  // namespace tensorgate::detail
