// FK.polyglot: a file valid as its own format that another loader also reads as code-bearing.
// Its beginning runs as a pickle that imports globals (a pickle loader reads from the start and
// ignores what follows the STOP), or is a tar header (torch.load tries tarfile first), or its end is a zip end-of-central-directory record (zip
// readers, Python's zipfile among them, search the last 64 KiB and 22 bytes for it, whatever
// comes before).
#include <cstring>
#include <string>

#include "common/little_endian.hpp"
#include "common/printable.hpp"
#include "kind/auto_validator.hpp"
#include "pickle/scanner.hpp"
#include "tar/tar_header.hpp"

namespace tensorgate::detail::kind {

std::optional<Finding> pickle_head(std::string_view prefix) {
  FindingList scratch(4);
  pickle::Scanner probe(PickleLimits{}, pickle::ScanSite{&scratch, 0, true, {}}, nullptr);
  probe.feed(reinterpret_cast<const unsigned char*>(prefix.data()), prefix.size());
  if (probe.importable_globals() == 0) return std::nullopt;
  return Finding{Rule::fk_polyglot, Severity::error,
                 "the file also begins as a pickle stream that imports " + quoted(probe.first_importable(), 80) +
                     ": a pickle loader reading it runs that",
                 0, std::nullopt};
}

namespace {

// An end record at `i` of the tail, as Python's zipfile reads it (_EndRecData, _EndRecData64,
// _RealGetContents): the disk counts and the central directory's offset field are ignored; the
// directory is the size_cd bytes right before the end record, or, when a zip64 locator sits
// right before it, before the zip64 end record right before that.
struct EndRecord {
  enum class Kind : std::uint8_t { none, verified, unverified } kind = Kind::none;
  std::uint64_t entries = 0;
  bool counts_agree = false;  // disk counts as every writer writes them
};

EndRecord read_end_record(const unsigned char* t, std::size_t i, std::uint64_t tail_start) {
  EndRecord r;
  const std::uint64_t at = tail_start + i;
  r.entries = static_cast<std::uint16_t>(t[i + 10] | (t[i + 11] << 8));
  r.counts_agree = r.entries == static_cast<std::uint16_t>(t[i + 8] | (t[i + 9] << 8)) && le32(t + i + 4) == 0;
  std::uint64_t cd_size = le32(t + i + 12), cd_end = at;
  if (i >= 20 && std::memcmp(t + i - 20, "PK\x06\x07", 4) == 0) {
    // zipfile refuses an archive whose locator names another disk; it reads the zip64 record
    // where the locator says it must be, right before it, and ignores one that is not there.
    if (le32(t + i - 16) != 0 || le32(t + i - 4) > 1) return r;
    if (i >= 76 && std::memcmp(t + i - 76, "PK\x06\x06", 4) == 0) {
      r.entries = le64(t + i - 76 + 32);
      cd_size = le64(t + i - 76 + 40);
      cd_end = at - 76;
      r.counts_agree = le64(t + i - 76 + 24) == r.entries;
    } else if (i < 76) {
      return EndRecord{EndRecord::Kind::unverified, r.entries, false};  // the zip64 record lies before the tail
    }
  }
  if (cd_size == 0 || cd_size > cd_end) return r;  // nothing to load, or a directory before the file
  const std::uint64_t cd_start = cd_end - cd_size;
  if (cd_start < tail_start) {
    r.kind = EndRecord::Kind::unverified;
    return r;
  }
  if (std::memcmp(t + (cd_start - tail_start), "PK\x01\x02", 4) != 0) return r;
  r.kind = EndRecord::Kind::verified;
  return r;
}

std::string entries_text(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

}  // namespace

std::optional<Finding> tar_head(std::string_view prefix, Format format) {
  if (format != Format::tar) {
    if (!tar::starts_as_tar(prefix)) return std::nullopt;
    return Finding{Rule::fk_polyglot, Severity::error,
                   "the file's first 512 bytes are also a tar header Python's tarfile accepts: torch.load tries its "
                   "legacy tar layout first and reads the file as a tar archive",
                   0, std::nullopt};
  }
  FindingList scratch(4);
  pickle::Scanner probe(PickleLimits{}, pickle::ScanSite{&scratch, 0, true, {}}, nullptr);
  probe.feed(reinterpret_cast<const unsigned char*>(prefix.data()), prefix.size());
  if (probe.pickles_ended() == 0 && probe.importable_globals() == 0) return std::nullopt;
  return Finding{Rule::fk_polyglot, Severity::error,
                 "the tar archive also begins as a pickle stream" +
                     (probe.importable_globals() ? " that imports " + quoted(probe.first_importable(), 80) : std::string()) +
                     ": a pickle loader reads one thing, torch.load's tar loader another",
                 0, std::nullopt};
}

// The last end record a zip reader would take, searched from the end as Python's zipfile
// searches (the last 65,536 + 22 bytes). Its central directory's first record is checked where
// it lies in the tail: then, or when its disk counts are as writers write them, FK.polyglot; an
// end record whose directory lies before the tail and whose counts disagree cannot be told from
// four chance bytes of tensor data without reading further back: FK.zip-end-unverified, a warning.
std::optional<Finding> zip_tail(std::string_view tail, std::uint64_t tail_start) {
  const auto* t = reinterpret_cast<const unsigned char*>(tail.data());
  std::optional<Finding> unverified;
  // Candidates by memrchr for the 'P' (the tail of a weights file is mostly other bytes: this
  // runs at memory speed where a byte-by-byte compare cost 2% of a small file's check).
  for (std::size_t end = tail.size() >= 22 ? tail.size() - 22 + 1 : 0; end > 0;) {
    const void* p = ::memrchr(t, 'P', end);
    if (!p) break;
    const std::size_t i = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - t);
    end = i;
    if (std::memcmp(t + i, "PK\x05\x06", 4) != 0) continue;
    const EndRecord r = read_end_record(t, i, tail_start);
    const std::uint64_t at = tail_start + i;
    if (r.kind == EndRecord::Kind::verified || (r.kind == EndRecord::Kind::unverified && r.counts_agree))
      return Finding{Rule::fk_polyglot, Severity::error,
                     "the file ends with a zip end-of-central-directory record at byte " + std::to_string(at) + " (" +
                         entries_text(r.entries) + "): zip readers take it for an archive (a zip hidden in the data)",
                     at, std::nullopt};
    if (r.kind == EndRecord::Kind::unverified && !unverified)
      unverified = Finding{Rule::fk_zip_end_unverified, Severity::warning,
                           "the last 64 KiB hold a zip end-of-central-directory record at byte " + std::to_string(at) +
                               " whose central directory lies before them: Python's zipfile would look for an archive there",
                           at, std::nullopt};
  }
  return unverified;
}

}  // namespace tensorgate::detail::kind
