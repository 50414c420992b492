// TarValidator: the byte loop, headers and extended headers, members and their content.
#include "tar/validator.hpp"

#include <algorithm>

namespace tensorgate {
namespace detail::tar {
TarValidator::TarValidator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), budget_(budget), findings_(limits.max_findings), content_(limits_, findings_, budget, "member") {}

TarValidator::~TarValidator() {
  if (budget_ && held_) budget_->release(held_);
}

void TarValidator::malformed(Rule rule, std::string message, std::uint64_t at) {
  findings_.add(rule, std::move(message), at);
  state_ = St::stopped;
}

Progress TarValidator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  const auto* p = reinterpret_cast<const unsigned char*>(chunk.data());
  std::size_t n = chunk.size();
  while (n > 0) {
    std::size_t used = n;
    switch (state_) {
      case St::header: used = take_header(p, n); break;
      case St::extended: used = take_extended(p, n); break;
      case St::data: used = take_data(p, n); break;
      case St::padding:
        used = static_cast<std::size_t>(std::min<std::uint64_t>(n, padding_));
        padding_ -= used;
        pos_ += used;
        if (padding_ == 0) state_ = St::header;
        break;
      case St::ended:
        trailing_ += n;
        pos_ += n;
        break;
      case St::stopped:
        pos_ += n;
        break;
    }
    p += used;
    n -= used;
    if (aborted()) break;
  }
  return progress();
}

std::size_t TarValidator::take_header(const unsigned char* p, std::size_t n) {
  const std::size_t take = std::min(n, kBlock - block_.size());
  block_.append(reinterpret_cast<const char*>(p), take);
  pos_ += take;
  if (block_.size() < kBlock) return take;
  const std::uint64_t at = pos_ - kBlock;
  const ParsedBlock b = parse_tar_block(block_);
  block_.clear();
  switch (b.kind) {
    case BlockKind::zeros:
      if (extended_type_)
        malformed(Rule::fk_tar_header, "the archive ends (a block of zeros at byte " + std::to_string(at) +
                                           ") right after an extended header, which describes no member: tarfile refuses it", at);
      else
        state_ = St::ended;  // tarfile reads no member past it
      break;
    case BlockKind::invalid:
      malformed(Rule::fk_tar_header,
                at == 0 ? "the first block is not a tar header Python's tarfile accepts: " + b.why
                        : "the block at byte " + std::to_string(at) + " is not a tar header (" + b.why +
                              "): Python's tarfile stops reading members there, another tar reader may not",
                at);
      break;
    case BlockKind::header: on_header(b.header); break;
  }
  return take;
}

void TarValidator::on_header(const TarHeader& h) {
  const std::uint64_t at = pos_ - kBlock;
  if (!extended_type_) member_at_ = at;
  const char t = h.type;
  if (t == type::gnu_sparse)
    return malformed(Rule::fk_tar_header, "the member at byte " + std::to_string(at) + " is a GNU sparse file, which tensorgate does not read", at);
  const bool extended = t == type::gnu_longname || t == type::gnu_longlink || t == type::pax || t == type::solaris_pax ||
                        t == type::pax_global;
  if (!extended) return start_member(h);
  if (h.size < 0) return malformed(Rule::fk_tar_header, "the extended header at byte " + std::to_string(at) + " has a negative size", at);
  if (static_cast<std::uint64_t>(h.size) > limits_.tar.max_extended_header_bytes) {
    aborted_ = Aborted{"tar-extended-header", "the extended header at byte " + std::to_string(at) + " holds " +
                                                  std::to_string(h.size) + " bytes, above " +
                                                  std::to_string(limits_.tar.max_extended_header_bytes) +
                                                  " (Limits::tar.max_extended_header_bytes)"};
    state_ = St::stopped;
    return;
  }
  extended_type_ = t;
  extended_.clear();
  left_ = padded(static_cast<std::uint64_t>(h.size));  // tarfile reads the padded blocks whole
  state_ = left_ ? St::extended : St::header;
  if (!left_) on_extended();
}

std::size_t TarValidator::take_extended(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, left_));
  extended_.append(reinterpret_cast<const char*>(p), take);
  left_ -= take;
  pos_ += take;
  if (left_ == 0) on_extended();
  return take;
}

// The extended header's data, applied to the member it describes (the first one read wins, as
// tarfile applies the outermost last) or, for a global pax header, to every member after it.
void TarValidator::on_extended() {
  const char t = extended_type_;
  state_ = St::header;
  if (t == type::gnu_longname || t == type::gnu_longlink) {
    std::string value = extended_.substr(0, extended_.find('\0'));
    std::optional<std::string>& slot = t == type::gnu_longname ? pending_name_ : pending_link_;
    if (!slot) slot = std::move(value);
    return;
  }
  PaxParse parse = parse_pax(extended_);
  if (!parse.records)
    return malformed(Rule::fk_tar_header, "the pax header at byte " + std::to_string(member_at_) + " is malformed: " + parse.why,
                     member_at_);
  PaxRecords& r = *parse.records;
  if (r.sparse)
    return malformed(Rule::fk_tar_header, "the pax header at byte " + std::to_string(member_at_) +
                                              " describes a GNU sparse file, which tensorgate does not read", member_at_);
  if (t == type::pax_global) {
    extended_type_ = 0;
    if (r.size)
      return malformed(Rule::fk_tar_header, "the global pax header at byte " + std::to_string(member_at_) +
                                                " sets size: tarfile then reads each member's data by it, but finds the "
                                                "next header by the member's own size",
                       member_at_);
    if (r.path) global_path_ = std::move(r.path);
    if (r.linkpath) global_link_ = std::move(r.linkpath);
    return;
  }
  if (r.path && !pending_name_) pending_name_ = std::move(r.path);
  if (r.linkpath && !pending_link_) pending_link_ = std::move(r.linkpath);
  if (r.size && !pending_size_) pending_size_ = std::move(r.size);
}

}  // namespace detail::tar

std::unique_ptr<Validator> make_tar_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::tar::TarValidator>(limits, budget);
}

}  // namespace tensorgate
