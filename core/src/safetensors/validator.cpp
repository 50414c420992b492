// The safetensors push validator: the byte loop (length, header, data) and its early verdict.
#include "safetensors/validator.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "common/huge_pages.hpp"
#include "safetensors/st2_header_json.hpp"
#include "safetensors/st5_tiling.hpp"

namespace tensorgate {
namespace detail {

SafetensorsValidator::SafetensorsValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), budget_(budget), findings_(limits.max_findings) {
  limits_.max_header_bytes = std::min(limits_.max_header_bytes, kSafetensorsMaxHeader);
}

SafetensorsValidator::~SafetensorsValidator() {
  if (budget_ && budget_held_) budget_->release(budget_held_);
}

Progress SafetensorsValidator::feed(std::span<const std::byte> chunk) {
  if (state_ == State::finished) return progress();
  bytes_seen_ += chunk.size();
  while (!chunk.empty()) {
    switch (state_) {
      case State::length: chunk = chunk.subspan(take_length(chunk)); break;
      case State::header: chunk = chunk.subspan(take_header(chunk)); break;
      case State::data: count_data(); chunk = {}; break;
      default: chunk = {}; break;
    }
  }
  return progress();
}

std::uint64_t SafetensorsValidator::bytes_wanted() const {
  switch (state_) {
    case State::length: return 8 - length_have_;
    case State::header: return n_ - header_.size();
    default: return 0;
  }
}

Progress SafetensorsValidator::skip(std::uint64_t count) {
  assert(bytes_wanted() == 0 && "skip() only past the bytes the validator looks at");
  if (bytes_wanted() != 0 || state_ == State::finished) return progress();
  bytes_seen_ += count;
  if (state_ == State::data) count_data();
  return progress();
}

std::size_t SafetensorsValidator::take_length(std::span<const std::byte> chunk) {
  const std::size_t n = std::min(chunk.size(), 8 - length_have_);
  std::memcpy(length_bytes_.data() + length_have_, chunk.data(), n);
  length_have_ += n;
  if (length_have_ == 8) on_length();
  return n;
}

void SafetensorsValidator::on_length() {
  n_ = 0;
  for (int i = 7; i >= 0; --i) n_ = (n_ << 8) | length_bytes_[static_cast<std::size_t>(i)];
  state_ = State::stopped;
  if (n_ > kSafetensorsMaxHeader) {
    findings_.add(Rule::st1_header_too_large,
                  "header length " + std::to_string(n_) + " is above 100,000,000", 0);
    return;
  }
  if (n_ > limits_.large_header_warning)
    findings_.add(Rule::stw_large_header,
                  "header length " + std::to_string(n_) + " is above the hub clients' 25,000,000", 0);
  if (total_size_ && 8 + n_ > *total_size_) {
    findings_.add(Rule::st1_truncated_header,
                  "the header needs bytes 8 to " + std::to_string(8 + n_) + ", the file has " +
                      std::to_string(*total_size_), 0);
    return;
  }
  if (n_ > limits_.max_header_bytes) {
    aborted_ = Aborted{"header-bytes", "header length " + std::to_string(n_) +
                                           " is above this validator's limit of " +
                                           std::to_string(limits_.max_header_bytes)};
    return;
  }
  state_ = State::header;
  if (n_ == 0) on_header();
}

// The budget is charged for the header bytes that have arrived (in 256 KiB steps), never for the
// length the file declares: eight bytes declaring 16 MiB hold 256 KiB, not 16 MiB, so a few tiny
// uploads cannot squat the whole budget. Past Limits::header_huge_pages_after, a huge page ahead.
bool SafetensorsValidator::charge_header(std::size_t need) {
  constexpr std::size_t kStep = 256 << 10;
  // Past the huge-page threshold the next bytes fill a 2 MiB page at once (take_header).
  const std::size_t ahead = need >= limits_.header_huge_pages_after ? kHugePageBytes : 0;
  const std::size_t target = std::min<std::size_t>(n_, (need + ahead + kStep - 1) / kStep * kStep);
  if (!budget_ || target <= budget_held_) return true;
  if (budget_->try_acquire(target - budget_held_)) {
    budget_held_ = target;
    return true;
  }
  return refuse_header_memory(std::to_string(target) + " bytes of");
}

// The shared budget refused what the header needs: a capacity answer (503), not a verdict.
bool SafetensorsValidator::refuse_header_memory(const std::string& what) {
  aborted_ = Aborted{"header-memory-budget",
                     "no memory left in the shared budget for " + what + " a " + std::to_string(n_) + "-byte header",
                     AbortKind::memory_budget};
  state_ = State::stopped;
  return false;
}

// With the total size known the header's length is certain: all of N is reserved at once (address
// space only: a page becomes resident when header bytes fill it, which is what is charged).
// Otherwise the buffer doubles with what arrives, never past N (past N the last huge page would
// fill beyond what is charged); while it moves, the bytes already there are held twice, and the
// budget is charged for the copy until it is done.
bool SafetensorsValidator::grow_header(std::size_t need) {
  constexpr std::size_t kFirstStep = 64 << 10;
  const std::size_t capacity =
      total_size_ ? n_ : std::min<std::size_t>(n_, std::max({need, 2 * header_.capacity(), kFirstStep}));
  const std::size_t copy = header_.size();
  if (budget_ && copy && !budget_->try_acquire(copy))
    return refuse_header_memory("a copy of the " + std::to_string(copy) + " bytes so far of");
  header_.reserve(capacity);  // the old block goes before its charge does
  if (budget_ && copy) budget_->release(copy);
  return true;
}

// Room for `need` header bytes in all: charged, allocated, and past
// Limits::header_huge_pages_after advised for huge pages (the part still to fill, again after the
// buffer grows).
bool SafetensorsValidator::make_room(std::size_t need) {
  if (!charge_header(need)) return false;
  if (header_.capacity() < need && !grow_header(need)) return false;
  if (need >= limits_.header_huge_pages_after && header_.data() != huge_advised_) {
    advise_huge_pages(header_.spare().data(), header_.spare().size());
    huge_advised_ = header_.data();
  }
  return true;
}

std::span<std::byte> SafetensorsValidator::prepare(std::size_t max) {
  if (state_ != State::header) return {};
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(max, bytes_wanted()));
  if (n == 0 || !make_room(header_.size() + n)) return {};
  return std::as_writable_bytes(header_.spare().first(n));
}

std::size_t SafetensorsValidator::take_header(std::span<const std::byte> chunk) {
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), bytes_wanted()));
  const auto* bytes = reinterpret_cast<const char*>(chunk.data());
  // Read in place (prepare()): the room was made then, and growing now would free the bytes.
  if (bytes == header_.spare().data() && n <= header_.spare().size()) {
    if (!charge_header(header_.size() + n)) return chunk.size();  // prepare() charged them already
    header_.commit(n);
  } else {
    // A room that an earlier feed ended is not fed again (validator.hpp): growing would free it.
    assert(!(bytes >= header_.data() && bytes < header_.data() + header_.capacity()));
    if (!make_room(header_.size() + n)) return chunk.size();
    header_.append(std::string_view(bytes, n));
  }
  if (header_.size() == n_) on_header();
  return n;
}

void SafetensorsValidator::on_header() {
  TableAllowance allowance(budget_, deadline_);
  ParsedHeader parsed = parse_header(std::move(header_), limits_, findings_, allowance);
  budget_held_ += allowance.charged();
  header_ = HeaderBuffer();
  table_ = std::move(parsed.table);
  if (parsed.budget_refused) {
    refuse_header_memory("the tables of");
    return;
  }
  if (parsed.deadline_passed) {
    aborted_ = Aborted{"parse-cpu-deadline", "the parse of a " + std::to_string(n_) +
                                                 "-byte header took more CPU time than this checker allows"};
    state_ = State::stopped;
    return;
  }
  object_end_ = parsed.object_end;
  reference_rejects_ = parsed.reference_rejects;
  understood_ = parsed.json_ok && !findings_.has_errors();
  if (understood_) facts_ = header_facts(parsed.architecture);
  if (parsed.json_ok) covered_ = check_tiling(*table_, findings_, 8 + n_);
  state_ = findings_.has_errors() ? State::stopped : State::data;
  if (covered_ && total_size_) {
    check_data_end(*total_size_ - 8 - n_, *covered_, 8 + n_, findings_);
    end_checked_ = true;
  }
}

// Data bytes are only counted (bytes_seen_ already includes them); bytes past the tiled end
// make the verdict final at once.
void SafetensorsValidator::count_data() {
  const std::uint64_t data_seen = bytes_seen_ - 8 - n_;
  if (!end_checked_ && covered_ && data_seen > *covered_) {
    check_data_end(data_seen, *covered_, 8 + n_, findings_);
    end_checked_ = true;
  }
}

Progress SafetensorsValidator::progress() const {
  if (aborted_) return Progress::aborted;
  if (findings_.has_errors()) return Progress::invalid;
  return Progress::need_more;
}

}  // namespace detail

std::unique_ptr<Validator> make_safetensors_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::SafetensorsValidator>(limits, budget);
}

}  // namespace tensorgate
