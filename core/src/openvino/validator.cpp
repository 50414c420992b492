#include "openvino/validator.hpp"

#include <algorithm>

#include "common/report_of.hpp"

namespace tensorgate {
namespace detail::openvino {
namespace {

// expat is fed at most this much at once: what it copies and holds is an unfinished token and
// one piece, whatever chunks the face reads.
constexpr std::size_t kPiece = 64 * 1024;
constexpr std::size_t kHead = 4;

// What expat may hold: the longest attribute value a tag may have, several times over (expat
// keeps a tag's raw bytes and its attribute values apart, and grows buffers by doubling), and
// a piece.
std::uint64_t expat_cap(const Limits& limits) { return 8 * limits.openvino.max_attribute_bytes + (16u << 20); }

}  // namespace

OpenVinoValidator::OpenVinoValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), findings_(limits.max_findings), memory_(budget), reader_(limits_, findings_, memory_) {
  expat_memory_.cap = expat_cap(limits_);
  parser_ = make_guarded_parser(expat_memory_, this);
  if (!parser_) {
    aborted_ = Aborted{"openvino-parser", "the XML parser could not be made", AbortKind::memory_budget};
    stopped_ = true;
  }
}

Progress OpenVinoValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  const char* data = reinterpret_cast<const char*>(chunk.data());
  std::size_t size = chunk.size();
  bytes_seen_ += size;
  // expat guesses the encoding from the first four bytes (a byte order mark, "<?xm", UTF-16's
  // zeros), and given fewer it guesses otherwise: they go to it together, however they came.
  if (head_.size() < kHead && !stopped_) {
    const std::size_t take = std::min(size, kHead - head_.size());
    head_.append(data, take);
    data += take;
    size -= take;
    if (head_.size() < kHead) return progress();
    parse_pieces(head_.data(), head_.size());
  }
  parse_pieces(data, size);
  if (reader_.stopped() == Stop::memory && !aborted_)
    aborted_ = Aborted{"openvino-memory-budget", "no memory left in the shared budget for the model's layers", AbortKind::memory_budget};
  return progress();
}

void OpenVinoValidator::parse_pieces(const char* data, std::size_t size) {
  while (size > 0 && !stopped_) {
    const std::uint64_t room = limits_.openvino.max_xml_bytes - parsed_;
    if (room == 0) {
      end_at_bound();
      break;
    }
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>({size, kPiece, room}));
    parsed_ += n;
    parse(data, n, false);
    data += n;
    size -= n;
  }
}

Progress OpenVinoValidator::skip(std::uint64_t count) {
  // Offered only once stopped (bytes_wanted() is 0): the rest is counted.
  if (!finished_) bytes_seen_ += count;
  if (!stopped_ && count > 0) {
    aborted_ = Aborted{"openvino-skipped", "bytes of model.xml were skipped by the caller; the file is not checked"};
    stopped_ = true;
  }
  return progress();
}

Report OpenVinoValidator::finish() {
  if (finished_) return report();
  finished_ = true;
  if (!stopped_ && head_.size() < kHead) parse_pieces(head_.data(), head_.size());  // a file shorter than that
  if (!stopped_) parse(nullptr, 0, true);
  if (reader_.stopped() == Stop::memory && !aborted_)
    aborted_ = Aborted{"openvino-memory-budget", "no memory left in the shared budget for the model's layers", AbortKind::memory_budget};
  return report();
}

Progress OpenVinoValidator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report OpenVinoValidator::report() const {
  Report r = report_of(Format::openvino, bytes_seen_, findings_, aborted_);
  // Until the root is read there is no IR to sum up (an input without one is expat's OV.xml).
  if (reader_.saw_root()) r.summary = reader_.summary();
  return r;
}

}  // namespace detail::openvino

std::unique_ptr<Validator> make_openvino_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::openvino::OpenVinoValidator>(limits, budget);
}

}  // namespace tensorgate
