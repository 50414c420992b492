#pragma once
// The remote client over scripted in-memory answers (cli/remote/in_memory.hpp): what a server
// sends on each connection, and what the client wrote back.
#include <string>
#include <string_view>
#include <vector>

#include "remote_options.hpp"
#include "tensorgate/report_writers.hpp"

namespace tgtest {

struct MemoryRun {
  tensorgate::CheckedFile file;
  std::vector<std::string> requests;  // per connection, everything the client wrote
  bool not_found = false;
};

// Options for tests: retries without waiting.
tensorgate::remote::RemoteOptions quick_options();

// `tensorgate check URL` with each connection answering the next of `answers`.
MemoryRun check_in_memory(std::vector<std::string> answers, std::string_view url = "http://example.test/model.safetensors",
                          const tensorgate::remote::RemoteOptions& options = quick_options(), std::size_t read_size = 0);

// The report of the same bytes checked as a local file named `name`.
tensorgate::Report local_report(std::string_view bytes, std::string_view name = "model.safetensors");

// Answers: "HTTP/1.1 206 Partial Content" with the Content-Range of bytes first..last of
// `file` (last clipped to the end), then `extra` header lines ("Name: value\r\n" each).
std::string partial(std::string_view file, std::uint64_t first, std::uint64_t last, std::string_view extra = {});
// "HTTP/1.1 <status line>", `extra` headers, Content-Length and `body`.
std::string answer(std::string_view status, std::string_view body = {}, std::string_view extra = {});

}  // namespace tgtest
