#pragma once
// The tar push validator: one pass over the archive as Python's tarfile reads it (torch.load's
// legacy loader opens any file tarfile accepts):
//   header block -> [GNU long name / pax records, then the header they describe] -> data,
//   padded to 512 bytes -> ... -> a block of zeros (tarfile stops there) or the end.
// Each member's data goes to its content's scanner (members/member_content.hpp); the members
// the legacy loader unpickles, "storages" and "tensors", through their layout (legacy_member),
// and "pickle" as a pickle whatever its first bytes.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/finding_list.hpp"
#include "members/member_content.hpp"
#include "tar/legacy_member.hpp"
#include "tar/pax.hpp"
#include "tar/tar_header.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::tar {

class TarValidator final : public Validator {
 public:
  TarValidator(const Limits& limits, MemoryBudget* budget);
  ~TarValidator() override;

  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override;
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override;
  Report finish() override;

 private:
  enum class St : std::uint8_t { header, extended, data, padding, ended, stopped };
  enum class Torch : std::uint8_t { none, storages, tensors, pickle };

  std::size_t take_header(const unsigned char* p, std::size_t n);
  std::size_t take_extended(const unsigned char* p, std::size_t n);
  std::size_t take_data(const unsigned char* p, std::size_t n);
  void on_header(const TarHeader& h);
  void on_extended();
  void start_member(const TarHeader& h);
  void end_member();
  void malformed(Rule rule, std::string message, std::uint64_t at);  // and stop reading
  Progress progress() const;
  std::optional<Aborted> aborted() const;
  void keep_abort(const std::optional<Aborted>& a);
  bool hold(std::size_t bytes);
  Report report() const;
  TarSummary summary() const;

  Limits limits_;
  MemoryBudget* budget_;
  std::size_t held_ = 0;           // charged to budget_ for the summaries kept
  FindingList findings_;
  St state_ = St::header;
  std::uint64_t pos_ = 0;
  bool finished_ = false;
  std::string block_;              // the header block being gathered
  std::uint64_t member_at_ = 0;    // where the member's first header block began
  std::uint64_t left_ = 0;         // data (or extended header) bytes still to come
  std::uint64_t padding_ = 0;      // to the next block boundary

  // GNU long names and pax records, read before the header they describe (the first one read
  // wins, as tarfile's recursion applies the outermost last).
  char extended_type_ = 0;
  std::string extended_;
  std::optional<std::string> pending_name_, pending_link_, pending_size_;
  std::optional<std::string> global_path_, global_link_;

  // The member whose data streams.
  TarMemberInfo cur_;
  Torch torch_ = Torch::none;
  members::MemberContent content_;
  std::unique_ptr<LegacyMember> legacy_;
  bool content_on_ = false;        // content_ reads this member
  std::uint64_t errors_before_ = 0;  // the findings' errors when the member began
  unsigned torch_members_[4]{};    // members named storages, tensors, pickle

  std::uint64_t members_ = 0;
  std::vector<TarMemberInfo> listed_;
  std::vector<ZipPickle> pickles_;
  std::uint64_t pickles_not_listed_ = 0;
  std::vector<NpySummary> arrays_;
  std::uint64_t trailing_ = 0;
  std::optional<Aborted> aborted_;
};

}  // namespace tensorgate::detail::tar
