#pragma once
// Files where they live (docs/remote.md): a URL checked through the same push validators as a
// local file, reading only what they want (cli/remote/remote_file.hpp).
#include <string>

#include "http_client.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// The report of the remote file at `url` (reported as `path`), with its bytes_transferred; or
// the reason there is none. `not_found` is set when the server said 404 or 410.
CheckedFile check_remote_file(remote::HttpClient& client, const std::string& path, const remote::Url& url,
                              const Limits& limits, FormatChoice format, bool* not_found = nullptr,
                              MemoryBudget* budget = nullptr);

}  // namespace tensorgate::cli
