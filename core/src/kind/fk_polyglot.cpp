// FK.polyglot: a file valid as its own format that another loader also reads as code-bearing.
// Its beginning runs as a pickle that imports globals (a pickle loader reads from the start and
// ignores what follows the STOP), or its end is a zip end-of-central-directory record (zip
// readers, Python's zipfile among them, search the last 64 KiB for it, whatever comes before).
#include <cstring>
#include <string>

#include "common/printable.hpp"
#include "kind/auto_validator.hpp"
#include "pickle/scanner.hpp"

namespace tensorgate::detail::kind {
namespace {

std::uint32_t le32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) | (static_cast<std::uint32_t>(p[2]) << 16) |
         (static_cast<std::uint32_t>(p[3]) << 24);
}

}  // namespace

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

// The last end record whose central directory could lie before it, searched from the end as
// zip readers search (the central directory's first record is checked when it is in the tail).
std::optional<Finding> zip_tail(std::string_view tail, std::uint64_t tail_start) {
  const auto* t = reinterpret_cast<const unsigned char*>(tail.data());
  // Candidates by memrchr for the 'P' (the tail of a weights file is mostly other bytes: this
  // runs at memory speed where a byte-by-byte compare cost 2% of a small file's check).
  for (std::size_t end = tail.size() >= 22 ? tail.size() - 22 + 1 : 0; end > 0;) {
    const void* p = ::memrchr(t, 'P', end);
    if (!p) break;
    const std::size_t i = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - t);
    end = i;
    if (std::memcmp(t + i, "PK\x05\x06", 4) != 0) continue;
    const std::uint16_t on_disk = static_cast<std::uint16_t>(t[i + 8] | (t[i + 9] << 8));
    const std::uint16_t total = static_cast<std::uint16_t>(t[i + 10] | (t[i + 11] << 8));
    const std::uint32_t cd_size = le32(t + i + 12);
    const std::uint64_t at = tail_start + i;
    if (on_disk != total || cd_size > at) continue;
    if (cd_size && cd_size <= i && std::memcmp(t + i - cd_size, "PK\x01\x02", 4) != 0) continue;
    return Finding{Rule::fk_polyglot, Severity::error,
                   "the file ends with a zip end-of-central-directory record at byte " + std::to_string(at) + " (" +
                       std::to_string(total) + (total == 1 ? " entry" : " entries") + "): zip readers take it for an archive (a zip hidden in the data)",
                   at, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace tensorgate::detail::kind
