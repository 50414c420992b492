#pragma once
// A remote file as the validators read it (docs/remote.md): byte ranges in growing windows for
// what the validator wants, the size from Content-Range, the data section counted and never
// fetched. A server that ignores Range is read as one stream, stopped as soon as the verdict is
// final. The file must stay the same across requests: a changed size, ETag or Last-Modified
// (If-Match and If-Range carry the first strong ETag) is an error, never a verdict on mixed bytes.
#include <cstdint>
#include <optional>
#include <string>

#include "http_client.hpp"
#include "input_source.hpp"

namespace tensorgate::remote {

class RemoteFile final : public cli::InputSource {
 public:
  // `credentials_origin`: where the user's headers may go (the origin of the URL the user gave).
  RemoteFile(HttpClient& client, Url url, std::string credentials_origin);
  ~RemoteFile() override;
  RemoteFile(const RemoteFile&) = delete;
  RemoteFile& operator=(const RemoteFile&) = delete;

  std::optional<std::uint64_t> size() const override { return size_; }
  cli::SourceRead read(std::span<std::byte> out, std::uint64_t wanted) override;
  std::optional<std::string> skip(std::uint64_t count) override;
  bool stop_when_final() const override { return true; }
  bool reads_tail() const override { return false; }  // one window, then the data is skipped

  // Ends the open answer, if any (read when it is short, the connection closed otherwise).
  void close() { drop_body(); }
  // Bytes of every response for this file so far: heads, bodies, redirects and retries.
  std::uint64_t transferred() const { return client_.bytes_received() - received_at_start_; }
  unsigned requests() const { return requests_; }
  // The first request was answered 404 or 410: there is no such file.
  bool not_found() const { return not_found_; }

 private:
  enum class Mode : unsigned char { none, ranges, stream };

  Failure open_window(std::uint64_t wanted);
  Failure accept_range(const OpenResponse& r, std::uint64_t last_asked);
  Failure same_file(const ResponseHead& head) const;
  Failure end_window();
  void drop_body();

  HttpClient& client_;
  Url url_;  // after the first request's redirects: later windows go straight there
  std::string credentials_origin_;
  std::uint64_t received_at_start_;
  Mode mode_ = Mode::none;
  std::optional<std::uint64_t> size_;
  std::optional<std::string> etag_, last_modified_;
  std::uint64_t pos_ = 0;        // the next byte of the file the reader gets
  std::uint64_t window_;         // the next window's size before `wanted` is considered
  bool body_open_ = false;
  std::uint64_t body_left_ = 0;  // bytes of the current range still to come
  unsigned requests_ = 0;
  bool not_found_ = false;
};

}  // namespace tensorgate::remote
