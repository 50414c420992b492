// The central directory, which loaders read, against the local headers the walk streamed
// (ZP.central-mismatch, ZP.central-missing, ZP.duplicate-name, ZP.encrypted in the central
// directory), and the end records (ZP.end-record).
#include <string>

#include "common/printable.hpp"
#include "zip/records.hpp"
#include "common/ascii_case.hpp"
#include "zip/validator.hpp"

namespace tensorgate::detail::zip {
namespace {

std::string hex32(std::uint32_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s = "0x";
  for (int i = 7; i >= 0; --i) s += kHex[(v >> (4 * i)) & 15];
  return s;
}

}  // namespace

// The zip64 extra field of a central-directory record: the 64-bit values of its saturated
// fields, in this order; false (and the walk stopped) when a field overruns the record.
bool ZipValidator::read_central_extra(std::string_view extra, CentralRecord& r) {
  const auto* x = reinterpret_cast<const unsigned char*>(extra.data());
  for (std::size_t i = 0; i + 4 <= extra.size();) {
    const std::uint16_t id = le16(x + i), size = le16(x + i + 2);
    if (size > extra.size() - i - 4) {
      malformed(Rule::zp_record, "the extra field of the central-directory record at byte " + std::to_string(rec_pos_) +
                                     " overruns its record", rec_pos_);
      return false;
    }
    if (id == kZip64ExtraId) {
      zip64_ = true;
      std::size_t k = i + 4;
      const std::size_t end = k + size;
      for (std::uint64_t* field : {&r.usize, &r.csize, &r.offset}) {
        if (*field != kSaturated32) continue;
        if (end - k < 8) {
          malformed(Rule::zp_record, "the zip64 extra field at byte " + std::to_string(rec_pos_) +
                                         " lacks a value its record defers to it", rec_pos_);
          return false;
        }
        *field = le64(x + k);
        k += 8;
      }
      if (r.disk == kSaturated16 && end - k >= 4) r.disk = le32(x + k);
    }
    i += 4 + size;
  }
  return true;
}

// What the central directory says of an entry against what its local header (and the walk) said.
void ZipValidator::compare_with_local(const CentralRecord& r, LocalEntry& l) {
  l.listed = true;
  std::string diff;
  const auto note = [&](std::string what) { diff += (diff.empty() ? "" : ", ") + what; };
  if (name_of(l) != r.name) {
    check_name(r.name, rec_pos_, "the central directory");
    note("name " + quoted(r.name, 80) + " (local " + quoted(name_of(l), 80) + ")");
  }
  if (r.method != l.method) note("method " + std::to_string(r.method) + " (local " + std::to_string(l.method) + ")");
  if (r.csize != l.compressed) note("compressed size " + std::to_string(r.csize) + " (local " + std::to_string(l.compressed) + ")");
  if (r.usize != l.uncompressed) note("size " + std::to_string(r.usize) + " (local " + std::to_string(l.uncompressed) + ")");
  if (r.crc != l.crc) note("CRC-32 " + hex32(r.crc) + " (local " + hex32(l.crc) + ")");
  if ((r.flags & kEncrypted) != (l.flags & kEncrypted)) note("the encrypted flag");
  if (!diff.empty())
    add(Rule::zp_central_mismatch, "the central directory's entry for the local header at byte " + std::to_string(r.offset) +
                                       " differs: " + diff,
        rec_pos_);
  if (r.usize > limits_.zip.max_entry_bytes && l.uncompressed <= limits_.zip.max_entry_bytes) {
    add(Rule::zp_entry_too_large, "the central directory records " + std::to_string(r.usize) + " uncompressed bytes for " +
                                      quoted(r.name, 80) + ", above " + std::to_string(limits_.zip.max_entry_bytes),
        rec_pos_);
  }
}

void ZipValidator::on_central() {
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data());
  const std::uint16_t n = le16(b + 24), e = le16(b + 26), c = le16(b + 28);
  CentralRecord r;
  r.flags = le16(b + 4);
  r.method = le16(b + 6);
  r.crc = le32(b + 12);
  r.csize = le32(b + 16);
  r.usize = le32(b + 20);
  r.offset = le32(b + 38);
  r.disk = le16(b + 30);
  r.name = std::string_view(buf_).substr(42, n);
  ++central_records_;
  central_bytes_ += 46 + static_cast<std::uint64_t>(n) + e + c;
  if (!read_central_extra(std::string_view(buf_).substr(42 + n, e), r)) return;
  if (!charge(n + 48)) return;
  if (r.disk != 0)
    add(Rule::zp_record, quoted(r.name, 80) + " is on disk " + std::to_string(r.disk) + ": split archives are not read", rec_pos_);
  if (r.flags & (kEncrypted | kStrongEncryption | kCentralEncrypted))
    add(Rule::zp_encrypted, "the central directory marks " + quoted(r.name, 80) + " encrypted (PyTorch refuses it)", rec_pos_);
  if (!central_names_.emplace(r.name).second) {
    add(Rule::zp_duplicate_name, "two entries are named " + quoted(r.name, 80) + ": which one a loader takes depends on the loader",
        rec_pos_);
  } else if (archive_ && charge(n + 48) && !central_folded_.emplace(folded(r.name)).second) {
    add(Rule::zp_duplicate_name, "two entries of this PyTorch archive are named " + quoted(r.name, 80) +
                                     " but for case: PyTorch's reader compares names without case and may take either",
        rec_pos_);
  }
  const auto it = local_at_.find(r.offset);
  if (it == local_at_.end()) {
    check_name(r.name, rec_pos_, "the central directory");
    return add(Rule::zp_central_missing, "the central directory lists " + quoted(r.name, 80) + " at byte " +
                                             std::to_string(r.offset) +
                                             ", where the walk read no local header: loaders read an entry no scanner saw",
               rec_pos_);
  }
  compare_with_local(r, locals_[it->second]);
}

void ZipValidator::on_zip64_end() {
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data());
  zip64_ = true;
  zip64_end_at_ = rec_pos_;
  if (!in_central_) central_start_ = rec_pos_;
  if (le32(b + 12) != 0 || le32(b + 16) != 0) add(Rule::zp_end_record, "the zip64 end record names another disk", rec_pos_);
  zip64_counts_ = EndCounts{le64(b + 28), le64(b + 36), le64(b + 44)};
}

void ZipValidator::on_zip64_locator() {
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data());
  if (!zip64_end_at_ || le64(b + 4) != *zip64_end_at_)
    add(Rule::zp_end_record, "the zip64 end locator points at byte " + std::to_string(le64(b + 4)) +
                                 (zip64_end_at_ ? ", the zip64 end record is at " + std::to_string(*zip64_end_at_)
                                                : ", and there is no zip64 end record"),
        rec_pos_);
}

void ZipValidator::on_end() {
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data());
  if (!in_central_ && !zip64_end_at_) central_start_ = rec_pos_;
  const std::uint64_t disk = le16(b), cd_disk = le16(b + 2);
  std::uint64_t entries = le16(b + 6), cd_size = le32(b + 8), cd_offset = le32(b + 12);
  const bool saturated = entries == kSaturated16 || cd_size == kSaturated32 || cd_offset == kSaturated32;
  if (saturated && !zip64_counts_) {
    add(Rule::zp_end_record, "the end record defers to a zip64 end record, and there is none", rec_pos_);
  } else if (zip64_counts_) {
    if (entries == kSaturated16) entries = zip64_counts_->entries;
    if (cd_size == kSaturated32) cd_size = zip64_counts_->cd_size;
    if (cd_offset == kSaturated32) cd_offset = zip64_counts_->cd_offset;
  }
  std::string diff;
  const auto check = [&](std::string_view what, std::uint64_t said, std::uint64_t found) {
    if (said != found) diff += (diff.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(said) + " (found " + std::to_string(found) + ")";
  };
  if (disk != 0 || cd_disk != 0) diff = "another disk";
  check("entries", entries, central_records_);
  check("central directory size", cd_size, central_bytes_);
  check("central directory offset", cd_offset, central_start_);
  if (zip64_counts_) {
    check("zip64 entries", zip64_counts_->entries, central_records_);
    check("zip64 central directory size", zip64_counts_->cd_size, central_bytes_);
    check("zip64 central directory offset", zip64_counts_->cd_offset, central_start_);
  }
  if (!diff.empty()) add(Rule::zp_end_record, "the end record says " + diff, rec_pos_);
  end_at_ = rec_pos_;
  comment_end_ = pos_;
  ended_ = true;
  state_ = St::after_end;
}

}  // namespace tensorgate::detail::zip
