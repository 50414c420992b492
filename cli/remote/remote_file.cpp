#include "remote_file.hpp"

#include <algorithm>
#include <array>

namespace tensorgate::remote {
namespace {

bool identity_coding(const std::optional<std::string>& coding) {
  if (!coding) return true;
  std::string c;
  for (const char ch : *coding)
    if (ch != ' ' && ch != '\t') c += static_cast<char>(ch | 0x20);
  return c.empty() || c == "identity";
}

std::string range_text(std::uint64_t first, std::uint64_t last) {
  return std::to_string(first) + "-" + std::to_string(last);
}

}  // namespace

RemoteFile::RemoteFile(HttpClient& client, Url url, std::string credentials_origin)
    : client_(client), url_(std::move(url)), credentials_origin_(std::move(credentials_origin)),
      received_at_start_(client.bytes_received()), window_(client.options().first_window) {}

RemoteFile::~RemoteFile() { drop_body(); }

void RemoteFile::drop_body() {
  if (body_open_) client_.close();
  body_open_ = false;
}

Failure RemoteFile::same_file(const ResponseHead& head) const {
  if (head.etag != etag_) return std::string("the file changed between requests (its ETag is not the first one's)");
  if (head.last_modified != last_modified_)
    return std::string("the file changed between requests (its Last-Modified is not the first one's)");
  return std::nullopt;
}

// A 206 must carry exactly the range asked for (cut short only at the end of the file), of the
// size the first answer gave.
Failure RemoteFile::accept_range(const OpenResponse& r, std::uint64_t last_asked) {
  const ResponseHead& head = r.head;
  const std::optional<ContentRange> range = head.content_range ? parse_content_range(*head.content_range) : std::nullopt;
  const std::string asked = range_text(pos_, last_asked);
  if (!range || !range->first) return "a 206 answer without a valid Content-Range (asked for bytes " + asked + ")";
  if (!range->total) return std::string("the server does not say the file's size (Content-Range total *)");
  if (size_ && *range->total != *size_)
    return "the file changed between requests (its size went from " + std::to_string(*size_) + " to " +
           std::to_string(*range->total) + " bytes)";
  const std::uint64_t end = std::min(last_asked, *range->total - 1);
  if (*range->first != pos_ || *range->last != end)
    return "the server sent the wrong range: bytes " + range_text(*range->first, *range->last) + " for bytes " + asked;
  const std::uint64_t length = *range->last - *range->first + 1;
  if (head.content_length && *head.content_length != length)
    return "a Content-Length of " + std::to_string(*head.content_length) + " for a Content-Range of " +
           std::to_string(length) + " bytes";
  size_ = *range->total;
  body_left_ = length;
  return std::nullopt;
}

Failure RemoteFile::open_window(std::uint64_t wanted) {
  const bool first = requests_ == 0;
  const RemoteOptions& o = client_.options();
  std::uint64_t length = std::max(wanted, window_);
  window_ = std::min(window_ * 2, std::max(o.max_window, o.first_window));
  if (size_) length = std::min(length, *size_ - pos_);
  const std::uint64_t last = length > UINT64_MAX - pos_ ? UINT64_MAX - 1 : pos_ + length - 1;
  GetRequest request{url_, credentials_origin_, std::pair(pos_, last), {}};
  if (etag_ && is_strong_etag(*etag_)) {
    request.conditions.emplace_back("If-Match", *etag_);
    request.conditions.emplace_back("If-Range", *etag_);
  } else if (last_modified_ && !etag_) {
    request.conditions.emplace_back("If-Unmodified-Since", *last_modified_);
  }
  OpenResponse r;
  ++requests_;
  if (auto f = client_.open(request, r)) {
    not_found_ = first && (client_.last_status() == 404 || client_.last_status() == 410);
    return f;
  }
  body_open_ = true;
  const ResponseHead& head = r.head;
  if (first) {
    url_ = r.url;
    etag_ = head.etag;
    last_modified_ = head.last_modified;
  } else if (head.status != 412) {
    if (auto f = same_file(head)) return f;
  }
  if ((head.status == 200 || head.status == 206) && !identity_coding(head.content_encoding))
    return "the server sent an encoded body (Content-Encoding: " + head.content_encoding->substr(0, 32) +
           "): its ranges are not the file's bytes";
  switch (head.status) {
    case 206:
      mode_ = Mode::ranges;
      return accept_range(r, last);
    case 200:
      if (!first) return std::string("the server stopped honouring Range (a 200 answer to a later range request)");
      mode_ = Mode::stream;  // Range ignored: the whole file, read as a stream
      size_ = head.content_length;
      return std::nullopt;
    case 412: return std::string("the file changed between requests (If-Match failed: HTTP 412)");
    case 416: {
      const auto range = head.content_range ? parse_content_range(*head.content_range) : std::nullopt;
      if (first && range && range->total && !range->first && *range->total == 0) {  // an empty file
        size_ = 0;
        mode_ = Mode::ranges;
        drop_body();
        return std::nullopt;
      }
      return "HTTP 416 Range Not Satisfiable for bytes " + range_text(pos_, last);
    }
    default: return "an unexpected " + status_text(head) + " to a range request";
  }
}

// The range has been delivered: its body must end here (a chunked body could go on).
Failure RemoteFile::end_window() {
  std::array<std::byte, 1> extra;
  std::size_t n = 0;
  if (auto f = client_.read_body(extra, n)) return f;
  if (n) return std::string("the server sent more bytes than its Content-Range says");
  client_.finish();
  body_open_ = false;
  return std::nullopt;
}

cli::SourceRead RemoteFile::read(std::span<std::byte> out, std::uint64_t wanted) {
  auto fail = [&](std::string message) {
    drop_body();
    return cli::SourceRead{0, std::move(message)};
  };
  if (!body_open_) {
    if (mode_ == Mode::stream || (size_ && pos_ >= *size_)) return cli::SourceRead{0, std::nullopt};
    if (auto f = open_window(wanted)) return fail(*f);
    if (!body_open_) return cli::SourceRead{0, std::nullopt};  // an empty file
  }
  std::size_t limit = out.size();
  if (mode_ == Mode::ranges) limit = static_cast<std::size_t>(std::min<std::uint64_t>(limit, body_left_));
  std::size_t n = 0;
  if (auto f = client_.read_body(out.first(limit), n)) {
    body_open_ = false;  // the client has closed the connection
    return fail(*f);
  }
  if (n == 0) {  // the body ended
    if (mode_ == Mode::ranges)
      return fail("the answer ended " + std::to_string(body_left_) + " bytes short of its Content-Range");
    if (size_ && pos_ != *size_) return fail("the answer ended " + std::to_string(*size_ - pos_) + " bytes short");
    client_.finish();
    body_open_ = false;
    return cli::SourceRead{0, std::nullopt};
  }
  pos_ += n;
  if (mode_ == Mode::ranges) {
    body_left_ -= n;
    if (body_left_ == 0)
      if (auto f = end_window()) return fail(*f);
  }
  return cli::SourceRead{n, std::nullopt};
}

std::optional<std::string> RemoteFile::skip(std::uint64_t count) {
  drop_body();  // the rest of this answer is data the validator only counts
  pos_ += count;
  return std::nullopt;
}

}  // namespace tensorgate::remote
