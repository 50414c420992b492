#include "zip/entry_content.hpp"

#include <zlib.h>

#include <cstring>

namespace tensorgate::detail::zip {
namespace {

bool pickle_name(std::string_view name) { return name.ends_with(".pkl") || name.ends_with(".pickle"); }

// PROTO 2-5 and then, over the bytes there are, no fault, and a STOP or 16 opcodes.
bool looks_like_pickle(std::string_view head, bool whole) {
  if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x80) return false;
  const unsigned char proto = static_cast<unsigned char>(head[1]);
  if (proto < 2 || proto > 5) return false;
  FindingList scratch(8);
  pickle::Scanner probe(PickleLimits{}, pickle::ScanSite{&scratch, 0, true, {}}, nullptr);
  probe.feed(reinterpret_cast<const unsigned char*>(head.data()), head.size());
  if (probe.stopped()) return false;
  const PickleSummary s = probe.summary();
  return s.pickles > 0 || s.opcodes >= 16 || (whole && probe.between_pickles());
}

}  // namespace

EntryContent::EntryContent(const Limits& limits, FindingList& findings, MemoryBudget* budget)
    : limits_(limits), findings_(findings), budget_(budget) {}

EntryContent::~EntryContent() = default;

void EntryContent::start(std::string_view name, std::uint64_t base, bool exact, bool crc_wanted) {
  site_ = pickle::ScanSite{&findings_, base, exact, "entry " + quoted(name, 80) + ": "};
  content_ = Content::undecided;
  head_.clear();
  crc_wanted_ = crc_wanted;
  crc_on_ = true;
  crc_ = static_cast<std::uint32_t>(crc32(0, nullptr, 0));
  size_ = 0;
  pickle_errors_ = 0;
  pickle_.reset();
  npy_.reset();
  if (pickle_name(name)) begin(Content::pickle);
}

void EntryContent::begin(Content c) {
  content_ = c;
  errors_before_ = findings_.error_count();
  if (c == Content::pickle) pickle_ = std::make_unique<pickle::Scanner>(limits_.pickle, site_, budget_);
  if (c == Content::npy) npy_ = std::make_unique<npy::NpyScanner>(limits_, site_, budget_);
  if (c == Content::data && !crc_wanted_) crc_on_ = false;
  const auto* p = reinterpret_cast<const unsigned char*>(head_.data());
  if (pickle_) pickle_->feed(p, head_.size());
  if (npy_) npy_->feed(p, head_.size());
  head_.clear();
}

void EntryContent::decide(bool at_end) {
  if (head_.size() >= 6 && std::memcmp(head_.data(), "\x93NUMPY", 6) == 0) return begin(Content::npy);
  if (head_.size() < kProbeBytes && !at_end) {
    // Decided early when the first bytes already rule both out.
    const bool may_npy = std::memcmp(head_.data(), "\x93NUMPY", std::min<std::size_t>(head_.size(), 6)) == 0;
    const bool may_pickle = static_cast<unsigned char>(head_[0]) == 0x80;
    if (may_npy || may_pickle) return;
    return begin(Content::data);
  }
  begin(looks_like_pickle(head_, at_end) ? Content::pickle : Content::data);
}

void EntryContent::feed(const unsigned char* p, std::size_t n) {
  if (n == 0) return;
  size_ += n;
  if (content_ == Content::undecided) {
    // Only the probe's bytes are summed before the content is known: a data entry whose CRC
    // is not checked (stored, not a pickle) must not pay for it over the rest of the chunk.
    const std::size_t take = std::min(n, kProbeBytes - head_.size());
    if (crc_on_) crc_ = static_cast<std::uint32_t>(crc32_z(crc_, p, take));
    head_.append(reinterpret_cast<const char*>(p), take);
    p += take;
    n -= take;
    decide(false);
    if (content_ == Content::undecided) return;
  }
  if (crc_on_) crc_ = static_cast<std::uint32_t>(crc32_z(crc_, p, n));
  if (pickle_) pickle_->feed(p, n);
  if (npy_) npy_->feed(p, n);
}

void EntryContent::finish() {
  if (content_ == Content::undecided) {
    if (head_.empty()) begin(Content::data); else begin(looks_like_pickle(head_, true) ? Content::pickle : Content::data);
  }
  if (pickle_) pickle_->finish();
  if (npy_) npy_->finish();
  pickle_errors_ = findings_.error_count() - errors_before_;
}

std::optional<PickleSummary> EntryContent::pickle_summary() const {
  if (!pickle_) return std::nullopt;
  return pickle_->summary();
}

std::size_t EntryContent::pickle_summary_heap_bytes() const { return pickle_ ? pickle_->summary_heap_bytes() : 0; }

const std::vector<PickleStorage>* EntryContent::pickle_storages() const { return pickle_ ? &pickle_->storages() : nullptr; }

std::optional<NpySummary> EntryContent::npy_summary() const {
  if (!npy_) return std::nullopt;
  return npy_->summary();
}

std::optional<Aborted> EntryContent::aborted() const {
  if (pickle_ && pickle_->aborted()) return pickle_->aborted();
  if (npy_) return npy_->aborted();
  return std::nullopt;
}

}  // namespace tensorgate::detail::zip
