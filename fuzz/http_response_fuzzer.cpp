// Arbitrary HTTP answers into the remote client's response handling: the same HttpClient,
// RemoteFile and validation loop `tensorgate check URL` runs, over in-memory connections
// (cli/remote/in_memory.hpp). No sockets, no clocks, no sleeping (retries wait 0 and any
// Retry-After above 0 is refused): deterministic.
//
// Input: byte 0 picks how many bytes each read gets (0: all at once); byte 1 picks the URL
// (http or https, .safetensors or .gguf) and whether a token is sent; the rest are the answers
// of successive connections, separated by kNextConnection.
//
// Beyond "no crash, no sanitizer report": the client never counts more bytes than the answers
// hold, never hands the validator more than it received, and when it gives a report of a file
// of known size, that report is exactly the local report of the bytes it fetched (the rest of
// the file being what the validator only counts): a remote verdict is a verdict on the file.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "http_client.hpp"
#include "in_memory.hpp"
#include "remote_file.hpp"
#include "source_check.hpp"

namespace {

namespace remote = tensorgate::remote;
namespace cli = tensorgate::cli;

constexpr std::string_view kNextConnection = "\n--next-connection--\n";

const remote::RemoteOptions& fuzz_options() {
  static const remote::RemoteOptions options = [] {
    remote::RemoteOptions o;
    o.retries = 2;
    o.retry_backoff = remote::Millis(0);
    o.max_backoff = remote::Millis(0);
    o.max_retry_after = remote::Millis(0);
    o.max_redirects = 4;
    o.max_header_bytes = 2048;
    o.max_discard_bytes = 1024;
    o.first_window = 64;  // small windows: several requests per file
    o.max_window = 4096;
    o.headers.emplace_back("Authorization", "Bearer fuzz-token");
    return o;
  }();
  return options;
}

// Records what the validator was handed, to rebuild the file the remote report judged.
class Recording final : public cli::InputSource {
 public:
  explicit Recording(cli::InputSource& inner) : inner_(inner) {}
  std::optional<std::uint64_t> size() const override { return inner_.size(); }
  cli::SourceRead read(std::span<std::byte> out, std::uint64_t wanted) override {
    cli::SourceRead r = inner_.read(out, wanted);
    bytes.append(reinterpret_cast<const char*>(out.data()), r.bytes);
    return r;
  }
  std::optional<std::string> skip(std::uint64_t count) override { return inner_.skip(count); }
  bool stop_when_final() const override { return inner_.stop_when_final(); }
  std::string bytes;

 private:
  cli::InputSource& inner_;
};

// The fetched bytes, then bytes the validator must never look at.
class Rebuilt final : public cli::InputSource {
 public:
  Rebuilt(std::string_view bytes, std::uint64_t size) : bytes_(bytes), size_(size) {}
  std::optional<std::uint64_t> size() const override { return size_; }
  cli::SourceRead read(std::span<std::byte> out, std::uint64_t) override {
    const std::size_t n = std::min(out.size(), bytes_.size() - pos_);
    tgfuzz::require(n > 0 || pos_ >= size_, "local-wants-unfetched-bytes");
    std::copy_n(reinterpret_cast<const std::byte*>(bytes_.data() + pos_), n, out.data());
    pos_ += n;
    return cli::SourceRead{n, std::nullopt};
  }
  std::optional<std::string> skip(std::uint64_t) override { return std::nullopt; }

 private:
  std::string_view bytes_;
  std::uint64_t size_;
  std::size_t pos_ = 0;
};

std::vector<std::string> answers_of(std::string_view rest) {
  std::vector<std::string> out;
  for (;;) {
    const std::size_t at = rest.find(kNextConnection);
    out.emplace_back(rest.substr(0, at));
    if (at == std::string_view::npos || out.size() == 16) return out;
    rest.remove_prefix(at + kNextConnection.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t read_size = data[0] == 0 ? 0 : data[0] % 64 + 1;
  const unsigned flags = data[1];
  const std::string_view rest = tgfuzz::as_text(data + 2, size - 2);
  const std::string url_text = std::string(flags & 1 ? "https" : "http") + "://hub.example/org/repo/model" +
                               (flags & 2 ? ".gguf" : ".safetensors");
  std::string error;
  const remote::Url url = *remote::parse_url(url_text, error);
  remote::RemoteOptions options = fuzz_options();
  if (!(flags & 4)) options.headers.clear();

  auto connector = remote::make_memory_connector(answers_of(rest), read_size, options);
  remote::HttpClient client(*connector, options);
  tensorgate::Limits limits;
  limits.max_header_bytes = 1 << 16;  // the answers are small: so are the headers worth holding
  remote::RemoteFile file(client, url, url.origin());
  Recording recording(file);
  const tensorgate::CheckedFile checked = cli::check_source(recording, url_text, url.file_name(), limits,
                                                            tensorgate::FormatChoice::auto_detect);
  file.close();

  tgfuzz::require(file.transferred() <= rest.size(), "transferred-within-input");
  tgfuzz::require(recording.bytes.size() <= file.transferred(), "fed-within-transferred");
  tgfuzz::require(checked.report.has_value() != checked.error.has_value(), "report-or-error");
  if (checked.error) tgfuzz::require(checked.error->find("fuzz-token") == std::string::npos, "token-in-error");
  if (std::getenv("TG_FUZZ_TRACE"))  // what each input came to, when seeds are written
    std::fprintf(stderr, "%s: %s\n", url_text.c_str(),
                 checked.error ? checked.error->c_str() : checked.report->valid ? "valid" : "invalid");
  if (!checked.report) return 0;
  tgfuzz::check_report_invariants(*checked.report, true);
  if (const auto known = recording.size()) {
    Rebuilt rebuilt(recording.bytes, *known);
    const tensorgate::CheckedFile local = cli::check_source(rebuilt, url_text, url.file_name(), limits,
                                                            tensorgate::FormatChoice::auto_detect);
    tgfuzz::require(local.report && tgfuzz::render(*local.report) == tgfuzz::render(*checked.report),
                    "remote-report-is-the-local-report");
  }
  return 0;
}
