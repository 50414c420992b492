#pragma once
// The files the soak uploads, mapped read-only, each with what the offline check says about it:
// `tensorgate check --format json` (with and without `--no-tensors`) is run over every file
// before the load starts, and its reports are kept as digests.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report_digest.hpp"

namespace soak {

struct SoakFile {
  std::string path;
  std::string name;        // the file name, sent as `name=` so both faces detect alike
  std::string query_name;  // `name` percent-encoded
  std::string_view bytes;  // mapped
  bool worst = false;      // a worst-case file (generated at run time)
  std::string sha256;      // lowercase hex of the bytes
  ReportDigest offline;             // `tensorgate check --format json`
  ReportDigest offline_no_tensors;  // the same with `--no-tensors`
  // 200 or 422 from the offline verdict; 0 when the offline check was aborted (a capacity
  // answer, never compared).
  unsigned expected_status() const {
    if (!offline.valid) return 0;
    return *offline.valid ? 200 : 422;
  }
};

// Reads `list` (one line per file: `small PATH` or `worst PATH`), maps every file and runs the
// offline check (`tensorgate` with `cli_args` before the paths). Throws with the reason.
std::vector<SoakFile> load_files(const std::string& list, const std::string& tensorgate,
                                 const std::vector<std::string>& cli_args);

}  // namespace soak
