#pragma once
// A pax extended header's records ("%d %s=%s\n": the length counts the whole record), parsed as
// Python 3.11's tarfile parses them (TarInfo._proc_pax): over the whole padded data blocks,
// until their end or a NUL where a record would start; a record whose length is not 1-20
// digits and a space, below 5, past the blocks, or whose keyword is empty, lacks '=' or whose
// last byte is not a newline makes the header invalid. Later records win.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::detail::tar {

// The keywords that change what a loader reads; the rest (times, owners) change nothing here.
struct PaxRecords {
  std::optional<std::string> path, linkpath;  // path without its trailing slashes
  std::optional<std::string> size;            // as written: int() of it, or 0 when int() refuses
  bool sparse = false;                        // a GNU.sparse.* keyword: GNU's sparse formats
};

struct PaxParse {
  std::optional<PaxRecords> records;
  std::string why;  // invalid: why tarfile refuses the header
};

PaxParse parse_pax(std::string_view blocks);

}  // namespace tensorgate::detail::tar
