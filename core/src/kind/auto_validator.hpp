#pragma once
// Detection as a validator (make_validator with auto_detect): the first bytes (at most 4 KiB)
// are held until they say what the file is (classify.hpp), then handed with the rest to that
// format's validator. Around it, the file-kind rules: FK.extension when the name says another
// kind, FK.polyglot when the file also begins as a pickle that imports globals or ends with a
// zip end-of-central-directory record, and for content of no model format a report of its own
// (FK.lfs-pointer, FK.empty, FK.unknown).
#include <memory>
#include <optional>
#include <string>

#include "kind/classify.hpp"
#include "pickle/compressed/front.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::kind {

// The last bytes a zip reader searches for the end record: Python's zipfile reads 65,536 + 22
// (a 22-byte record and a comment of at most 65,535 bytes fit in one byte less).
inline constexpr std::uint64_t kTailWindow = 22 + 65536;

class AutoValidator final : public Validator {
 public:
  AutoValidator(std::string name, const Limits& limits, MemoryBudget* budget);

  void set_total_size(std::uint64_t size) override;
  Progress feed(std::span<const std::byte> chunk) override;
  std::span<std::byte> prepare(std::size_t max) override;
  std::uint64_t bytes_wanted() const override;
  std::uint64_t bytes_skippable() const override;
  Progress skip(std::uint64_t count) override;
  std::uint64_t tail_wanted() const override;
  // The delegate's answer: before the choice no heavy step can complete (the first bytes are
  // at most kDetectPrefix, and the heaviest step, a safetensors header past 1 MiB, is not in them).
  bool completes_heavy_step(std::uint64_t size) const override {
    return delegate_ && delegate_->completes_heavy_step(size);
  }
  void set_deadline(Deadline* deadline) override {
    deadline_ = deadline;
    if (delegate_) delegate_->set_deadline(deadline);
  }
  Report snapshot() const override;
  Report finish() override;

 private:
  void keep_tail(std::string_view piece);
  void keep_head(std::string_view piece);
  void choose(const Classification& c);
  void check_head();
  Report merged(Report r, bool finished) const;
  std::optional<Finding> end_record() const;
  Progress progress(Progress delegate) const;
  bool settle_probe();

  std::string name_;
  Limits limits_;
  MemoryBudget* budget_;
  Deadline* deadline_ = nullptr;
  std::optional<std::uint64_t> total_;
  std::uint64_t seen_ = 0;  // bytes fed or skipped
  std::string head_;        // the first kPrefix bytes: the choice, then the pickle-head probe
  bool head_checked_ = false;
  std::string tail_;        // the last bytes fed (at most 2 x kTailWindow, trimmed to kTailWindow)
  bool tail_searched_ = false;           // the chunk that ended the file held the whole window
  std::optional<Finding> tail_record_;   // and FK.polyglot's end record was found in it
  std::unique_ptr<Validator> delegate_;
  Format format_ = Format::unknown;
  std::optional<Finding> extension_;   // FK.extension
  std::optional<Finding> head_polyglot_;
  std::optional<Finding> tar_polyglot_;
  // A compressed file read on until its first inflated byte says whether it is a pickle; if
  // not, it becomes what it looked like (`declined_`, of no format).
  pickle::CompressedPickleValidator* probing_ = nullptr;
  Classification declined_;
};

// The report of a file of no model format: an LFS pointer, an empty file, unknown content.
std::unique_ptr<Validator> make_kind_validator(const Classification& c, const Limits& limits);

// FK.polyglot's two marks.
std::optional<Finding> pickle_head(std::string_view prefix);
std::optional<Finding> zip_tail(std::string_view tail, std::uint64_t tail_start);
// A file read as `format` whose first block is a tar header, or a tar that begins as a pickle.
std::optional<Finding> tar_head(std::string_view prefix, Format format);

}  // namespace tensorgate::detail::kind
