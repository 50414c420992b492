#pragma once
// A push validator (docs/architecture.md, "How a chunk becomes a finding"): fed the file in order, in chunks of any
// size, it never needs a byte twice. Like a wuffs decoder, "need more input" is a resumable
// state; a truncation only becomes a finding when `finish()` says the input has ended.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "tensorgate/deadline.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate {

enum class Progress : unsigned char {
  need_more,  // feed more bytes (or finish)
  invalid,    // the verdict is final: invalid. More bytes change nothing but the counts.
  aborted,    // a caller's limit was reached; Report::aborted says which
};

class Validator {
 public:
  virtual ~Validator() = default;

  // The total input size when known in advance (file size, Content-Length). Lets truncation
  // and trailing bytes be found as soon as the header is read. Call before the first feed.
  virtual void set_total_size(std::uint64_t size) = 0;

  virtual Progress feed(std::span<const std::byte> chunk) = 0;
  Progress feed(std::string_view chunk) {
    return feed(std::as_bytes(std::span<const char>(chunk.data(), chunk.size())));
  }

  // Room in the validator's own memory for the next bytes, when it keeps them (the safetensors
  // header): up to `max` bytes to read straight into and then feed, in place. A feed whose chunk
  // begins where the room does takes the bytes without copying them; any other feed copies as
  // usual. Any feed or skip ends the room, and an ended room must not be fed (prepare again).
  // Empty when the validator keeps nothing: read into a buffer of your own. Saves a large
  // header's second copy (cli/source_check.cpp).
  virtual std::span<std::byte> prepare(std::size_t max) {
    (void)max;
    return {};
  }

  // How many of the next bytes the validator needs to look at. 0 means it only counts from
  // here on: a caller that knows the bytes exist may `skip` them instead of reading them.
  virtual std::uint64_t bytes_wanted() const = 0;
  // How many of the next bytes the validator will not look at before it wants bytes again (the
  // rest of an ONNX initializer's raw_data): a caller may `skip` up to that many instead of
  // feeding them, and the report is the one feeding them gives. 0 when no such run starts here.
  // A separate call, not a meaning of bytes_wanted() == 0, since that one promises nothing is
  // looked at up to the end (callers skip to the tail on it) while this run is bounded and
  // bytes_wanted() still counts from here (feeding the run is always right). The run is what
  // the input claims: it may reach past the input's end (a truncated file), so a caller never
  // skips past the bytes that exist, and leaves tail_wanted() out of it.
  virtual std::uint64_t bytes_skippable() const { return 0; }
  // Skips `count` bytes, never looked at: when bytes_wanted() is 0 (they exist and are only
  // counted), or up to bytes_skippable().
  virtual Progress skip(std::uint64_t count) = 0;
  // Bytes at the very end of the input that the validator looks at even while it only counts
  // the bytes before them (format detection reads the last 64 KiB for a zip end record, the
  // mark of a polyglot): a caller that skips leaves them out of the skip and feeds them.
  virtual std::uint64_t tail_wanted() const { return 0; }

  // Whether feeding `size` more bytes completes a step whose cost grows with the input (the
  // safetensors header parse of a large header): a caller with threads may run that feed off
  // its event loop. Advice only; the result is the same wherever it runs.
  virtual bool completes_heavy_step(std::uint64_t size) const {
    (void)size;
    return false;
  }

  // A deadline for the step that runs long within one feed (the safetensors header parse):
  // past it the validator stops with Report::aborted, limit "parse-cpu-deadline". Set it before
  // the feed that completes such a step and clear it (null) after; validators without such a
  // step ignore it, since a face can watch its clock between feeds.
  virtual void set_deadline(Deadline* deadline) { (void)deadline; }

  // The report of what is established so far, without end-of-input checks (early answers).
  virtual Report snapshot() const = 0;
  // The input has ended: apply end-of-input checks and return the final report.
  virtual Report finish() = 0;
};

// A whole buffer through one validator (tests, fuzzers, the validate_<format> helpers): its size
// told, everything fed, then finished.
inline Report validate_whole(Validator& v, std::span<const std::byte> bytes) {
  v.set_total_size(bytes.size());
  v.feed(bytes);
  return v.finish();
}
inline Report validate_whole(Validator& v, std::string_view bytes) {
  return validate_whole(v, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
}

std::unique_ptr<Validator> make_safetensors_validator(const Limits& limits = {},
                                                      MemoryBudget* budget = nullptr);

// Convenience for whole buffers (tests, fuzzers): feed everything, then finish.
Report validate_safetensors(std::span<const std::byte> bytes, const Limits& limits = {});
Report validate_safetensors(std::string_view bytes, const Limits& limits = {});

}  // namespace tensorgate
