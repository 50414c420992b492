#include "kind/auto_validator.hpp"

#include <algorithm>
#include <cassert>

#include "tensorgate/detect.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate::detail::kind {

AutoValidator::AutoValidator(std::string name, const Limits& limits, MemoryBudget* budget)
    : name_(std::move(name)), limits_(limits), budget_(budget) {}

void AutoValidator::set_total_size(std::uint64_t size) {
  total_ = size;
  if (delegate_) delegate_->set_total_size(size);
}

// The last kTailWindow bytes: with the size known, only the bytes that fall in them are copied,
// and none when the chunk that ends the file holds the whole window (a local file's last read):
// the end record is searched where the bytes are (64 KiB of fresh memory less for a small check).
void AutoValidator::keep_tail(std::string_view piece) {
  if (total_ && seen_ + piece.size() + kTailWindow <= *total_) return;
  if (total_ && seen_ + piece.size() == *total_ && (piece.size() >= kTailWindow || seen_ == 0)) {
    const std::string_view window = piece.substr(piece.size() - std::min<std::size_t>(piece.size(), kTailWindow));
    tail_record_ = zip_tail(window, *total_ - window.size());
    tail_searched_ = true;
    tail_.clear();
    return;
  }
  tail_searched_ = false;  // bytes past the declared end: the window moved on
  tail_record_.reset();
  if (total_ && seen_ + kTailWindow < *total_) piece.remove_prefix(static_cast<std::size_t>(*total_ - kTailWindow - seen_));
  if (piece.size() >= kTailWindow) {
    tail_.assign(piece.substr(piece.size() - kTailWindow));
    return;
  }
  tail_.append(piece);
  if (tail_.size() > 2 * kTailWindow) tail_.erase(0, tail_.size() - kTailWindow);
}

// The first kPrefix bytes decide the format, and, once all there (or the input ended), whether
// they also run as a pickle that imports globals.
void AutoValidator::keep_head(std::string_view piece) {
  if (head_checked_) return;
  head_.append(piece.substr(0, kPrefix - head_.size()));
  if (delegate_ && (head_.size() == kPrefix || (total_ && head_.size() == *total_))) check_head();
}

void AutoValidator::check_head() {
  head_checked_ = true;
  const bool model = format_ != Format::pickle && format_ != Format::lfs_pointer && format_ != Format::empty &&
                     format_ != Format::unknown;
  if (model) head_polyglot_ = pickle_head(head_);
  // A tar's other reading, or a tar read as another format (a pickle too: torch.load tries tar first).
  if ((model || format_ == Format::pickle) && (format_ != Format::tar || !head_polyglot_))
    tar_polyglot_ = tar_head(head_, format_);
  head_.clear();
  head_.shrink_to_fit();
}

Progress AutoValidator::feed(std::span<const std::byte> chunk) {
  std::string_view bytes(reinterpret_cast<const char*>(chunk.data()), chunk.size());
  keep_tail(bytes);
  seen_ += bytes.size();
  if (delegate_) {
    keep_head(bytes);
    const Progress p = delegate_->feed(chunk);
    return settle_probe() ? progress(Progress::invalid) : progress(p);
  }
  const std::size_t before = head_.size();
  keep_head(bytes);  // before the choice: only collects
  const std::size_t taken = head_.size() - before;
  const bool complete = head_.size() == kPrefix || (total_ && head_.size() == *total_);
  const auto c = classify(head_, complete);
  if (!c) return Progress::need_more;
  choose(*c);
  const Progress p = delegate_->feed(chunk.subspan(taken));
  return settle_probe() ? progress(Progress::invalid) : progress(p);
}

// Once the head has been looked at, the delegate's room is the room: this validator only reads
// what is fed (the tail window), wherever it lies.
std::span<std::byte> AutoValidator::prepare(std::size_t max) {
  return delegate_ && head_checked_ ? delegate_->prepare(max) : std::span<std::byte>{};
}

void AutoValidator::choose(const Classification& c) {
  format_ = c.format;
  if (c.compressed_pending) {
    // Read on: the file is a pickle only if the stream inflates to one (settle_probe).
    auto probing = std::make_unique<pickle::CompressedPickleValidator>(*pickle::compression_of(head_, true), limits_, budget_, true);
    probing_ = probing.get();
    delegate_ = std::move(probing);
    declined_ = Classification{Format::unknown, c.looks_like, std::nullopt};
  } else switch (c.format) {
#define TENSORGATE_FORMAT(id, name)                     \
  case Format::id:                                      \
    delegate_ = make_##id##_validator(limits_, budget_); \
    break;
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
    default: delegate_ = make_kind_validator(c, limits_); break;
  }
  if (total_) delegate_->set_total_size(*total_);
  delegate_->set_deadline(deadline_);
  if (const auto why = extension_mismatch(name_, c.format))
    extension_ = Finding{Rule::fk_extension, Severity::warning, *why, std::nullopt, std::nullopt};
  delegate_->feed(head_);
  if (head_.size() == kPrefix || (total_ && head_.size() == *total_)) check_head();
}

// A probed compressed file that turned out no pickle: from here it is what it looked like, as
// if classify() had said so (the bytes so far counted). True when that happened now.
bool AutoValidator::settle_probe() {
  if (!probing_ || probing_->probe() != pickle::CompressedPickleValidator::Probe::declined) return false;
  probing_ = nullptr;
  format_ = declined_.format;
  delegate_ = make_kind_validator(declined_, limits_);
  delegate_->skip(seen_);
  extension_.reset();
  if (const auto why = extension_mismatch(name_, format_))
    extension_ = Finding{Rule::fk_extension, Severity::warning, *why, std::nullopt, std::nullopt};
  tar_polyglot_.reset();  // looked for only in a pickle or a model format
  return true;
}

Progress AutoValidator::progress(Progress delegate) const {
  if (delegate == Progress::need_more && (head_polyglot_ || tar_polyglot_)) return Progress::invalid;
  return delegate;
}

// The first kPrefix bytes are always looked at (the pickle-head probe), then what the format wants.
std::uint64_t AutoValidator::bytes_wanted() const {
  const std::uint64_t head = head_checked_ ? 0 : kPrefix - head_.size();
  return delegate_ ? std::max(head, delegate_->bytes_wanted()) : head;
}

// The delegate's run, once the head has been looked at, and short of FK.polyglot's window: the
// end record is searched in the last bytes fed, so none of them may be skipped. That window is
// known only with the size; without it nothing is offered while the end is still searched.
std::uint64_t AutoValidator::bytes_skippable() const {
  if (!delegate_ || !head_checked_) return 0;
  const std::uint64_t run = delegate_->bytes_skippable();
  if (run == 0 || tail_wanted() == 0) return run;
  if (!total_) return 0;
  return std::min(run, *total_ > seen_ + kTailWindow ? *total_ - seen_ - kTailWindow : 0);
}

Progress AutoValidator::skip(std::uint64_t count) {
  assert((bytes_wanted() == 0 || count <= bytes_skippable()) && "skip() only past the bytes the validator looks at");
  if (!delegate_ || !head_checked_) return Progress::need_more;
  seen_ += count;
  tail_.clear();  // what came before the skip is no longer the end
  tail_searched_ = false;
  tail_record_.reset();
  const Progress p = delegate_->skip(count);
  return settle_probe() ? progress(Progress::invalid) : progress(p);
}

// The end record's search needs the last bytes of every format but the zip itself (whose end
// its walker reads) and the kinds of no format.
std::uint64_t AutoValidator::tail_wanted() const {
  if (!delegate_) return kTailWindow;
  const bool needs = format_ != Format::zip && format_ != Format::lfs_pointer && format_ != Format::empty;
  return needs ? std::max(kTailWindow, delegate_->tail_wanted()) : delegate_->tail_wanted();
}

// FK.polyglot's end record in the last kTailWindow bytes: found already where the last chunk
// lay, or searched in the bytes kept.
std::optional<Finding> AutoValidator::end_record() const {
  if (tail_searched_) return tail_record_;
  const std::uint64_t start = seen_ - tail_.size();
  const std::string_view window = std::string_view(tail_).substr(tail_.size() > kTailWindow ? tail_.size() - kTailWindow : 0);
  return zip_tail(window, start + (tail_.size() - window.size()));
}

// The delegate's report with the file-kind findings: FK.extension first (it is known from
// the first bytes), FK.polyglot last; within Limits::max_findings like every finding.
Report AutoValidator::merged(Report r, bool finished) const {
  std::vector<Finding> front, back;
  if (extension_) front.push_back(*extension_);
  if (head_polyglot_) back.push_back(*head_polyglot_);
  if (tar_polyglot_) back.push_back(*tar_polyglot_);
  if (finished && tail_wanted() > 0 && format_ != Format::zip)
    if (auto f = end_record()) back.push_back(std::move(*f));
  r.findings.insert(r.findings.begin(), front.begin(), front.end());
  r.findings.insert(r.findings.end(), back.begin(), back.end());
  while (r.findings.size() > limits_.max_findings) {
    r.findings.pop_back();
    ++r.findings_dropped;
  }
  if (!back.empty()) {
    r.valid = false;
    r.canonical.reset();
  }
  return r;
}

Report AutoValidator::snapshot() const {
  if (delegate_) return merged(delegate_->snapshot(), false);
  Report r;
  const auto c = classify(head_, true);
  r.format = c ? c->format : Format::unknown;
  r.bytes_seen = seen_;
  return r;
}

Report AutoValidator::finish() {
  if (!delegate_) choose(*classify(head_, true));
  if (!head_checked_) check_head();
  Report r = delegate_->finish();
  if (settle_probe()) r = delegate_->finish();
  return merged(std::move(r), true);
}

}  // namespace tensorgate::detail::kind
