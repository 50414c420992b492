#include "remote_check.hpp"

#include "remote_file.hpp"
#include "source_check.hpp"

namespace tensorgate::cli {

CheckedFile check_remote_file(remote::HttpClient& client, const std::string& path, const remote::Url& url,
                              const Limits& limits, FormatChoice format, bool* not_found,
                              MemoryBudget* budget) {
  remote::RemoteFile file(client, url, url.origin());
  CheckedFile checked = check_source(file, path, url.file_name(), limits, format, budget);
  file.close();
  checked.bytes_transferred = file.transferred();
  if (not_found) *not_found = file.not_found();
  return checked;
}

}  // namespace tensorgate::cli
