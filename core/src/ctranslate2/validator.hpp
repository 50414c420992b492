#pragma once
// The CTranslate2 push validator (docs/ctranslate2.md): model.bin read once, in order, as
// CTranslate2's loader reads it (src/models/model.cc). Every record is a run of fixed-size
// fields (a length field tells the size of the next): the byte loop gathers one field at a time
// in a small buffer, whatever the chunks, and hands it to the step that reads it
// (ctr_header.cpp, ctr_variable.cpp, ctr_alias.cpp). A variable's data is only counted, and
// offered to the face to skip. Made by make_ctranslate2_validator (tensorgate/ctranslate2.hpp).
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "common/seeded_hash.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::ctranslate2 {

// Where the reader is: the field it gathers, or the data it counts.
enum class Step : std::uint8_t {
  version,         // uint32
  spec_length,     // uint16, from version 2
  spec_name,       // its bytes, the last a NUL
  revision,        // uint32
  variable_count,  // uint32
  name_length,     // a variable's
  name,
  rank,            // uint8
  dims,            // rank x uint32
  dtype,           // uint8: a DataType id from version 4, an item size before
  byte_count,      // uint32: bytes from version 4, elements before
  data,            // counted, never looked at
  alias_count,     // uint32, from version 3
  alias_length,
  alias_name,
  target_length,
  target_name,
  done,            // past the last record: whatever follows is trailing
};

// The variable whose record is being read.
struct VariableRecord {
  std::uint64_t at = 0;  // where its record starts
  std::string name;
  std::uint32_t rank = 0;
  std::vector<std::uint64_t> shape;
  std::uint8_t dtype = 0;
};

class CTranslate2Validator final : public Validator {
 public:
  CTranslate2Validator(const Limits& limits, MemoryBudget* budget);

  // The report never depends on the size: a record past the end is found when the input ends.
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return reading() ? 1u << 16 : 0; }
  std::uint64_t bytes_skippable() const override { return reading() && step_ == Step::data ? data_left_ : 0; }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  bool reading() const { return !stopped_ && step_ != Step::done; }
  Progress progress() const;
  Report report() const;

  // The next field: `bytes` bytes gathered from here on.
  void expect(Step step, std::uint32_t bytes);
  void on_field();
  void count_data(std::uint64_t n);

  // ctr_header.cpp
  void on_version(std::uint32_t v);
  void on_spec_name();
  void on_revision(std::uint32_t r);
  void on_variable_count(std::uint32_t n);
  void after_variables();
  // ctr_variable.cpp
  void next_variable();
  void on_name();
  void on_rank(std::uint32_t rank);
  void on_dims();
  void on_byte_count(std::uint32_t count);
  void on_data_end();
  // ctr_alias.cpp
  void on_alias_count(std::uint32_t n);
  void next_alias();
  void on_alias_name();
  void on_target_name();

  // A string's length field (uint16, counting the NUL): false when the loader refuses it.
  bool string_length(std::uint16_t length, Rule rule, const char* what);
  // The string gathered, without its NUL; a finding when it has none.
  std::string string_value(Rule rule, const char* what);
  // A name kept for duplicate and alias lookups, from the shared budget; false when refused.
  bool keep_name(std::string_view name, bool& fresh);
  bool knows(std::string_view name) const { return names_.contains(name); }
  bool hold(std::uint64_t bytes);

  void fail(Rule rule, std::string message, std::uint64_t offset, std::optional<std::string_view> tensor = std::nullopt);
  void stop(Rule rule, std::string message, std::uint64_t offset);  // a finding; the rest is counted only
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);
  std::string where() const;  // the record the reader is in, for a truncation

  struct NameHash {
    std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
  };

  Limits limits_;
  FindingList findings_;
  BudgetHold memory_;
  std::optional<Aborted> aborted_;
  bool stopped_ = false, finished_ = false, have_version_ = false;
  std::uint64_t pos_ = 0;  // bytes seen

  Step step_ = Step::version;
  std::uint32_t need_ = 0;  // bytes of the field
  std::uint64_t field_at_ = 0;
  std::string buf_;
  std::uint64_t data_left_ = 0, data_at_ = 0;
  std::uint64_t trailing_at_ = 0;

  std::uint64_t variables_read_ = 0, aliases_read_ = 0;
  VariableRecord var_;
  std::string alias_;
  std::uint64_t alias_at_ = 0;
  std::deque<std::string> kept_;  // never moves a string: names_ views them
  boost::unordered_flat_set<std::string_view, NameHash> names_;
  CTranslate2Summary summary_;
};

}  // namespace tensorgate::detail::ctranslate2
