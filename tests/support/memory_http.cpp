#include "memory_http.hpp"

#include <algorithm>

#include "http_client.hpp"
#include "in_memory.hpp"
#include "remote_check.hpp"
#include "tensorgate/detect.hpp"

namespace tgtest {

namespace remote = tensorgate::remote;

remote::RemoteOptions quick_options() {
  remote::RemoteOptions o;
  o.retry_backoff = remote::Millis(1);
  o.max_backoff = remote::Millis(1);
  return o;
}

MemoryRun check_in_memory(std::vector<std::string> answers, std::string_view url,
                          const remote::RemoteOptions& options, std::size_t read_size) {
  auto connector = remote::make_memory_connector(std::move(answers), read_size, options);
  remote::HttpClient client(*connector, options);
  std::string error;
  const auto parsed = remote::parse_url(url, error);
  MemoryRun run;
  if (!parsed) {
    run.file = tensorgate::CheckedFile{std::string(url), std::nullopt, error};
    return run;
  }
  run.file = tensorgate::cli::check_remote_file(client, std::string(url), *parsed, tensorgate::Limits{},
                                                tensorgate::FormatChoice::auto_detect, &run.not_found);
  run.requests = connector->requests();
  return run;
}

tensorgate::Report local_report(std::string_view bytes, std::string_view name) {
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, name);
  v->set_total_size(bytes.size());
  v->feed(bytes);
  return v->finish();
}

std::string partial(std::string_view file, std::uint64_t first, std::uint64_t last, std::string_view extra) {
  last = std::min<std::uint64_t>(last, file.size() - 1);
  const std::string_view body = file.substr(first, last - first + 1);
  return "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " + std::to_string(first) + "-" +
         std::to_string(last) + "/" + std::to_string(file.size()) + "\r\n" + std::string(extra) +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

std::string answer(std::string_view status, std::string_view body, std::string_view extra) {
  return "HTTP/1.1 " + std::string(status) + "\r\n" + std::string(extra) + "Content-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

}  // namespace tgtest
