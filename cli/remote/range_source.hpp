#pragma once
// A remote file read at any offset (what `tensorgate diff --values` and the audit's ByteSource
// want): range requests of at least kWindow bytes, answered 206 from the offset asked (a server
// may clip the range at the file's end), kept to serve the reads that follow, so a table of many
// small tensors costs a request per window, not per tensor. The file must stay
// the one that was validated: every answer's Content-Range total and strong ETag must equal the
// first answer's (later requests carry If-Match), or the read fails and the comparison stops.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "http_client.hpp"
#include "tensorgate/audit.hpp"

namespace tensorgate::remote {

class RangeSource final : public ByteSource {
 public:
  RangeSource(HttpClient& client, Url url, std::string credentials_origin)
      : client_(client), url_(std::move(url)), credentials_origin_(std::move(credentials_origin)) {}

  // Each source holds at most one window: a repository's files are open together.
  static constexpr std::size_t kWindow = 256 * 1024;

  bool read(std::uint64_t offset, std::span<std::byte> out) override;
  // Why the last read failed ("" when none did).
  const std::string& error() const { return error_; }

 private:
  bool fail(std::string why);
  bool fetch(std::uint64_t offset, std::size_t at_least);

  HttpClient& client_;
  Url url_;
  std::string credentials_origin_;
  std::optional<std::uint64_t> total_;
  std::optional<std::string> etag_;
  std::string error_;
  std::vector<std::byte> window_;    // the bytes of the last answer
  std::uint64_t window_offset_ = 0;  // where they start in the file
};

}  // namespace tensorgate::remote
