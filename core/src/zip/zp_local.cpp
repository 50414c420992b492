// A local file header: ZP.unsafe-name, ZP.encrypted (local), ZP.method, ZP.record (extra
// fields, zip64 sizes), and where the entry's data ends (the sizes, or a data descriptor after
// the data: bit 3).
#include <string>

#include "common/contained_path.hpp"
#include "common/printable.hpp"
#include "zip/records.hpp"
#include "zip/validator.hpp"

namespace tensorgate::detail::zip {

void ZipValidator::check_name(std::string_view name, std::uint64_t at, std::string_view where) {
  if (const auto why = escapes_directory(name))
    add(Rule::zp_unsafe_name, std::string(where) + " at byte " + std::to_string(at) + " names " + quoted(name, 80) + ": " +
                                  std::string(*why), at);
}

// Extra fields: (id, size, data) records that fill the field exactly. The zip64 one (id 1)
// holds the sizes a saturated 32-bit field stands for, in the order APPNOTE gives.
bool ZipValidator::read_local_extra(std::string_view extra, LocalEntry& e, std::uint64_t& csize, std::uint64_t& usize) {
  const auto* x = reinterpret_cast<const unsigned char*>(extra.data());
  for (std::size_t i = 0; i < extra.size();) {
    if (extra.size() - i < 4 || extra.size() - i - 4 < le16(x + i + 2)) {
      malformed(Rule::zp_record, "the extra field of the local header at byte " + std::to_string(e.offset) +
                                     " overruns its record", e.offset);
      return false;
    }
    const std::uint16_t id = le16(x + i), size = le16(x + i + 2);
    if (id == kZip64ExtraId) {
      e.zip64 = true;
      zip64_ = true;
      std::size_t k = i + 4;
      const std::size_t end = k + size;
      for (std::uint64_t* field : {&usize, &csize}) {
        if (*field != kSaturated32) continue;
        if (end - k < 8) {
          malformed(Rule::zp_record, "the zip64 extra field of the local header at byte " + std::to_string(e.offset) +
                                         " lacks the sizes its header defers to it", e.offset);
          return false;
        }
        *field = le64(x + k);
        k += 8;
      }
    }
    i += 4 + size;
  }
  return true;
}

void ZipValidator::on_local() {
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data());
  LocalEntry e;
  e.offset = rec_pos_;
  e.flags = le16(b + 2);
  e.method = le16(b + 4);
  e.crc = le32(b + 10);
  std::uint64_t csize = le32(b + 14), usize = le32(b + 18);
  const std::uint16_t n = le16(b + 22);
  const std::string_view name = std::string_view(buf_).substr(26, n);
  const std::string_view extra = std::string_view(buf_).substr(26 + n);
  e.data_start = pos_;
  if (locals_.size() >= limits_.zip.max_entries)
    return abort_with("zip-entries", "more than " + std::to_string(limits_.zip.max_entries) +
                                         " entries, this walker's limit (Limits::zip.max_entries)");
  if (names_.size() + n > limits_.zip.max_name_bytes_total)
    return abort_with("zip-name-bytes", "more than " + std::to_string(limits_.zip.max_name_bytes_total) +
                                            " bytes of entry names (Limits::zip.max_name_bytes_total)");
  if (!charge(n + sizeof(LocalEntry) + 2 * sizeof(std::uint64_t))) return;
  check_name(name, e.offset, "the local header");
  if (e.flags & (kEncrypted | kStrongEncryption))
    add(Rule::zp_encrypted, "the local header of " + quoted(name, 80) + " sets the encrypted flag: PyTorch loads the "
                            "plain bytes a scanner would skip; they are scanned as plain data", e.offset);
  if (!read_local_extra(extra, e, csize, usize)) return;
  sizes_known_ = !(e.flags & kHasDescriptor);
  declared_compressed_ = csize;
  declared_uncompressed_ = usize;
  if (e.method != 0 && e.method != 8) {
    add(Rule::zp_method, quoted(name, 80) + " uses compression method " + std::to_string(e.method) +
                             "; only stored (0) and deflate (8) entries are read and scanned", e.offset);
    if (!sizes_known_)
      return malformed(Rule::zp_record, "the end of " + quoted(name, 80) + " (method " + std::to_string(e.method) +
                                            ", sizes after the data) cannot be found", e.offset);
  }
  e.name_at = static_cast<std::uint32_t>(names_.size());
  e.name_len = n;
  names_.append(name);
  cur_ = e;
  start_data();
}

// Where data.pkl says this storage ends: numel times the size of its dtype.
std::optional<std::uint64_t> ZipValidator::storage_hint(std::string_view name) const {
  if (!archive_ || !data_pkl_storages_) return std::nullopt;
  const std::string prefix = *archive_ + "/data/";
  if (!name.starts_with(prefix)) return std::nullopt;
  const auto it = storage_bytes_.find(name.substr(prefix.size()));
  if (it == storage_bytes_.end() || it->second == 0) return std::nullopt;
  return it->second;
}

}  // namespace tensorgate::detail::zip
