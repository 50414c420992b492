// TarValidator: a member's name, size and data (FK.tar-member for what torch's legacy loader
// reads), the end of the input (FK.tar-header for a cut archive), the summary.
#include <algorithm>
#include <cassert>

#include "common/report_of.hpp"
#include "common/printable.hpp"
#include "pickle/summary_bytes.hpp"
#include "tar/validator.hpp"

namespace tensorgate::detail::tar {
namespace {

constexpr std::size_t kListedMembers = 4096;
constexpr std::size_t kListedPickles = 16;
constexpr std::size_t kListedArrays = 16;
constexpr std::string_view kTorchNames[] = {"", "storages", "tensors", "pickle"};

std::string type_name(char t) {
  switch (t) {
    case type::dir: return "directory";
    case type::symlink: return "symlink";
    case type::hardlink: return "hardlink";
    default: return has_data(t) ? "file" : "other";  // tarfile extracts an unknown type as a file
  }
}

}  // namespace

void TarValidator::start_member(const TarHeader& h) {
  std::string name = pending_name_ ? *pending_name_ : global_path_ ? *global_path_ : h.name;
  std::int64_t size = h.size;
  if (pending_size_) {
    if (std::any_of(pending_size_->begin(), pending_size_->end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
      return malformed(Rule::fk_tar_header, "the pax size of the member at byte " + std::to_string(member_at_) +
                                                " is not ASCII: Python may read it as a number in another script", member_at_);
    size = python_int(*pending_size_).value_or(0);  // tarfile takes a size int() refuses as 0
  }
  extended_type_ = 0;
  pending_name_.reset();
  pending_link_.reset();
  pending_size_.reset();
  if (size < 0)
    return malformed(Rule::fk_tar_header, "the member " + quoted(name, 80) + " at byte " + std::to_string(member_at_) +
                                              " has a negative size: tarfile would read its headers backwards", member_at_);
  const std::uint64_t data = has_data(h.type) ? static_cast<std::uint64_t>(size) : 0;
  cur_ = TarMemberInfo{name.substr(0, 512), type_name(h.type), member_at_, data, "none"};
  torch_ = Torch::none;
  for (std::size_t i = 1; i < std::size(kTorchNames); ++i)
    if (name == kTorchNames[i]) torch_ = static_cast<Torch>(i);
  const std::string where = "member " + quoted(name, 80) + ": ";
  if (torch_ != Torch::none) {
    const unsigned seen = ++torch_members_[static_cast<int>(torch_)];
    if (seen == 2)
      findings_.add(Rule::fk_tar_member, where + "a second member of this name at byte " + std::to_string(member_at_) +
                                             ": tarfile's extract takes the last one, a scanner may read the first",
                    member_at_);
    if (!is_regular(h.type))
      findings_.add(Rule::fk_tar_member, where + "torch.load's legacy loader extracts it and reads it, and it is a " + cur_.type +
                                             ": extracted, it reads another file",
                    member_at_);
  }
  const pickle::ScanSite site{&findings_, pos_, true, where, nullptr, limits_.policy};
  errors_before_ = findings_.error_count();
  content_on_ = false;
  if ((torch_ == Torch::storages || torch_ == Torch::tensors) && is_regular(h.type)) {
    const auto layout = torch_ == Torch::storages ? LegacyMember::Layout::storages : LegacyMember::Layout::tensors;
    legacy_ = std::make_unique<LegacyMember>(layout, data, limits_, site, budget_);
    cur_.content = "pickle";
  } else if (has_data(h.type)) {
    content_.start(name, pos_, true, false, torch_ == Torch::pickle);
    content_on_ = true;
  }
  left_ = data;
  padding_ = padded(data) - data;
  state_ = St::data;
  if (left_ == 0) end_member();
}

std::size_t TarValidator::take_data(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, left_));
  if (legacy_) legacy_->feed(p, take); else content_.feed(p, take);
  left_ -= take;
  pos_ += take;
  if (left_ == 0) end_member();
  return take;
}

void TarValidator::end_member() {
  ++members_;
  if (legacy_) {
    legacy_->finish();
    if (pickles_.size() < kListedPickles && hold(legacy_->scanner().summary_heap_bytes()))
      pickles_.push_back(ZipPickle{cur_.name, findings_.error_count() == errors_before_, legacy_->scanner().summary()});
    else
      ++pickles_not_listed_;
    keep_abort(legacy_->scanner().aborted());
    legacy_.reset();
  } else if (content_on_) {
    content_.finish();
    keep_abort(content_.aborted());
    content_on_ = false;
    const members::Content c = content_.content();
    cur_.content = c == members::Content::pickle ? "pickle" : c == members::Content::npy ? "npy" : "data";
    if (c == members::Content::pickle) {
      if (pickles_.size() < kListedPickles && hold(content_.pickle_summary_heap_bytes()))
        pickles_.push_back(ZipPickle{cur_.name, content_.pickle_valid(), *content_.pickle_summary()});
      else
        ++pickles_not_listed_;
    } else if (c == members::Content::npy && arrays_.size() < kListedArrays) {
      if (auto array = content_.npy_summary()) arrays_.push_back(std::move(*array));
    }
  }
  if (listed_.size() < kListedMembers) listed_.push_back(cur_);
  if (state_ != St::stopped) state_ = padding_ ? St::padding : St::header;
}

std::uint64_t TarValidator::bytes_wanted() const {
  if (finished_ || state_ == St::stopped || state_ == St::ended) return 0;
  return 1 << 20;
}

Progress TarValidator::skip(std::uint64_t count) {
  assert(bytes_wanted() == 0 && "skip() only past the bytes the validator looks at");
  if (state_ == St::ended) trailing_ += count;
  pos_ += count;
  return progress();
}

// The copies of pickle summaries kept for the report, charged to the shared budget before
// they are made; a refusal ends the walk (tar-memory-budget).
bool TarValidator::hold(std::size_t bytes) {
  bytes += sizeof(ZipPickle) + 512;
  if (budget_ && !budget_->try_acquire(bytes)) {
    keep_abort(Aborted{"tar-memory-budget", "no memory left in the shared budget for the summary of a pickle member",
                       AbortKind::memory_budget});
    return false;
  }
  held_ += budget_ ? bytes : 0;
  return true;
}

// A member scanner's capacity limit ends the walk, as the validator's own does.
void TarValidator::keep_abort(const std::optional<Aborted>& a) {
  if (!a || aborted_) return;
  aborted_ = a;
  state_ = St::stopped;
}

// This validator's own limit, or a member scanner's.
std::optional<Aborted> TarValidator::aborted() const {
  if (aborted_) return aborted_;
  if (legacy_ && legacy_->scanner().aborted()) return legacy_->scanner().aborted();
  if (content_on_) return content_.aborted();
  return std::nullopt;
}

Progress TarValidator::progress() const {
  if (aborted()) return Progress::aborted;
  if (findings_.has_errors()) return Progress::invalid;
  return Progress::need_more;
}

// tarfile refuses an archive cut inside a header, an extended header or a member's data or
// padding (it checks the byte before the next header), then torch.load reads the file as
// something else; an end at a block boundary is a clean end, with or without zero blocks.
Report TarValidator::finish() {
  if (!finished_) {
    finished_ = true;
    const bool cut = (state_ == St::header && !block_.empty()) || state_ == St::extended || state_ == St::data ||
                     state_ == St::padding || (state_ == St::header && extended_type_);
    if (state_ == St::data) {
      if (legacy_) legacy_->finish();
      if (content_on_) content_.finish();
    }
    if (cut)
      malformed(Rule::fk_tar_header, "the input ends at byte " + std::to_string(pos_) + " inside " +
                                         (state_ == St::data || state_ == St::padding ? "the member " + quoted(cur_.name, 80)
                                                                                       : std::string("a header")) +
                                         ": Python's tarfile refuses the archive",
                pos_);
  }
  return report();
}

Report TarValidator::snapshot() const { return report(); }

Report TarValidator::report() const {
  Report r = report_of(Format::tar, pos_, findings_, aborted());
  r.summary = summary();
  return r;
}

TarSummary TarValidator::summary() const {
  TarSummary s;
  s.members = members_;
  s.member_list = listed_;
  s.members_not_listed = members_ - listed_.size();
  s.torch_legacy = torch_members_[1] && torch_members_[2] && torch_members_[3];
  s.pickles = pickles_;
  s.pickles_not_listed = pickles_not_listed_;
  s.arrays = arrays_;
  s.trailing_bytes = trailing_;
  return s;
}

}  // namespace tensorgate::detail::tar
