#include "range_source.hpp"

#include <algorithm>
#include <cstring>

namespace tensorgate::remote {

bool RangeSource::fail(std::string why) {
  error_ = url_.text + ": " + std::move(why);
  window_.clear();
  client_.close();
  return false;
}

bool RangeSource::read(std::uint64_t offset, std::span<std::byte> out) {
  while (!out.empty()) {
    const bool inside = offset >= window_offset_ && offset - window_offset_ < window_.size();
    if (!inside && !fetch(offset, out.size())) return false;
    const std::size_t at = static_cast<std::size_t>(offset - window_offset_);
    const std::size_t n = std::min(out.size(), window_.size() - at);
    std::memcpy(out.data(), window_.data() + at, n);
    out = out.subspan(n);
    offset += n;
  }
  return true;
}

// One answer of at least `at_least` bytes from `offset` (fewer only where the file ends).
bool RangeSource::fetch(std::uint64_t offset, std::size_t at_least) {
  std::uint64_t want = std::max<std::uint64_t>(at_least, kWindow);
  if (total_ && offset < *total_) want = std::min(want, *total_ - offset);
  const std::uint64_t last = offset + want - 1;
  if (last < offset) return fail("range past 2^64");
  GetRequest request{url_, credentials_origin_, std::pair{offset, last}, {}, false};
  if (etag_) request.conditions.emplace_back("If-Match", *etag_);
  OpenResponse response;
  if (Failure f = client_.open(request, response)) return fail(*f);
  const ResponseHead& head = response.head;
  if (head.status == 412) return fail("the file changed since it was checked (HTTP 412)");
  if (head.status != 206) return fail("asked for a byte range, got " + status_text(head));
  const auto range = head.content_range ? parse_content_range(*head.content_range) : std::nullopt;
  if (!range || range->first != offset || !range->last || *range->last > last)
    return fail("the answer's Content-Range is not the range asked for");
  if (total_ && range->total != total_) return fail("the file changed since it was checked (its size)");
  if (!total_) total_ = range->total;
  if (etag_ && head.etag != etag_) return fail("the file changed since it was checked (its ETag)");
  if (!etag_ && head.etag && is_strong_etag(*head.etag)) etag_ = head.etag;
  const std::uint64_t length = *range->last - offset + 1;
  if (length < at_least) return fail("the file ends before the bytes its header describes");
  window_.resize(static_cast<std::size_t>(length));
  window_offset_ = offset;
  std::size_t got = 0;
  while (got < window_.size()) {
    std::size_t n = 0;
    if (Failure f = client_.read_body(std::span(window_).subspan(got), n)) return fail(*f);
    if (n == 0) return fail("the answer ended before its Content-Range did");
    got += n;
  }
  std::byte extra[1];  // the body must end here: that also keeps the connection for the next fetch
  std::size_t n = 0;
  if (Failure f = client_.read_body(extra, n)) return fail(*f);
  if (n != 0) return fail("the answer is longer than its Content-Range");
  client_.finish();
  return true;
}

}  // namespace tensorgate::remote
