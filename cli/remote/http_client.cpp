#include "http_client.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <thread>

#include "tensorgate/report_writers.hpp"

namespace tensorgate::remote {
namespace {

bool is_redirect(unsigned status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string refused(const ResponseHead& head, const Url& url, unsigned redirects, bool credentials_sent,
                    unsigned retries) {
  std::string out = status_text(head);
  if (retries) out += " after " + plural(retries, "retry", "retries");
  if (redirects) out += " from " + url.origin() + " (after " + plural(redirects, "redirect", "redirects") + ")";
  switch (head.status) {
    case 401:
      out += credentials_sent ? ": the credentials given were not accepted"
                              : ": credentials are needed (--header 'Authorization: ...' or TENSORGATE_TOKEN)";
      if (!credentials_sent && redirects) out += "; they are not sent to an origin other than the URL's";
      break;
    case 403: out += ": access is forbidden"; break;
    case 404: out += ": no such file"; break;
    default: break;
  }
  return out;
}

}  // namespace

bool retryable_status(unsigned status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

std::uint64_t HttpClient::bytes_received() const {
  return received_closed_ + (conn_ ? conn_->bytes_received() : 0);
}

Failure HttpClient::connection_for(const Url& url, bool& reused) {
  reused = conn_ && conn_origin_ == url.origin();
  if (reused) return std::nullopt;
  if (conn_) received_closed_ += conn_->bytes_received();
  conn_.reset();
  std::string error;
  conn_ = connector_.connect(url, error);
  if (!conn_) return error;
  conn_origin_ = url.origin();
  return std::nullopt;
}

Failure HttpClient::exchange(const GetRequest& request, const Url& url, ResponseHead& head) {
  OutgoingRequest out{url.target, url.host_header(), {}};
  out.headers.emplace_back("User-Agent", "tensorgate/" + std::string(tool_version()));
  out.headers.emplace_back("Accept-Encoding", "identity");  // ranges of the file's own bytes
  if (request.range)
    out.headers.emplace_back("Range", "bytes=" + std::to_string(request.range->first) + "-" + std::to_string(request.range->second));
  for (const auto& c : request.conditions) out.headers.push_back(c);
  if (url.origin() == request.credentials_origin)
    for (const auto& h : options_.headers) out.headers.push_back(h);
  // A kept connection the server has closed meanwhile fails before any byte of an answer: the
  // request goes once more, on a new connection.
  for (int attempt = 0;; ++attempt) {
    bool reused = false;
    if (auto f = connection_for(url, reused)) return f;
    const std::uint64_t before = conn_->bytes_received();
    Failure f = conn_->send(out);
    if (!f) f = conn_->read_head(head);
    if (!f) {
      body_left_ = head.content_length;
      return std::nullopt;
    }
    const bool stale = reused && conn_->bytes_received() == before;
    received_closed_ += conn_->bytes_received();
    conn_.reset();
    if (!stale || attempt > 0) return *f + " (" + url.origin() + ")";
  }
}

Failure HttpClient::wait_before_retry(const ResponseHead& head, unsigned attempt) {
  auto wait = std::min<Millis>(options_.retry_backoff * (1u << std::min(attempt, 16u)), options_.max_backoff);
  if (head.retry_after) {
    if (const auto asked = parse_retry_after(*head.retry_after, std::chrono::system_clock::now())) {
      if (*asked > options_.max_retry_after)
        return status_text(head) + ": the server asks to retry after " + std::to_string(asked->count()) +
               " s, longer than " + std::to_string(options_.max_retry_after.count() / 1000) + " s";
      wait = *asked;
    }
  }
  std::this_thread::sleep_for(wait);
  return std::nullopt;
}

Failure HttpClient::open(const GetRequest& request, OpenResponse& out) {
  Url url = request.url;
  unsigned redirects = 0, retries = 0;
  last_status_ = 0;
  for (;;) {
    ResponseHead head;
    if (auto f = exchange(request, url, head)) return f;
    const unsigned status = head.status;
    last_status_ = status;
    const bool missing = status == 404 || status == 410;
    if ((status >= 200 && status < 300) || status == 412 || status == 416 || (missing && request.missing_ok)) {
      out = OpenResponse{std::move(head), url, redirects};
      return std::nullopt;
    }
    discard_body();
    if (is_redirect(status)) {
      if (!head.location) return status_text(head) + " without a Location";
      std::string error;
      std::optional<Url> next = resolve_location(url, *head.location, error);
      if (!next) return error;
      if (url.tls && !next->tls) return "refused a redirect from https to http (" + next->origin() + ")";
      if (++redirects > options_.max_redirects)
        return "more than " + plural(options_.max_redirects, "redirect", "redirects") + " (the last to " + next->origin() + ")";
      url = std::move(*next);
      retries = 0;
      continue;
    }
    if (retryable_status(status) && retries < options_.retries) {
      if (auto f = wait_before_retry(head, retries)) return f;
      ++retries;
      continue;
    }
    const bool credentials_sent = url.origin() == request.credentials_origin && !options_.headers.empty();
    return refused(head, url, redirects, credentials_sent, retries);
  }
}

Failure HttpClient::read_body(std::span<std::byte> out, std::size_t& n) {
  n = 0;
  if (!conn_) return "the connection is closed";
  if (auto f = conn_->read_body(out, n)) {
    received_closed_ += conn_->bytes_received();
    conn_.reset();
    return f;
  }
  if (body_left_) *body_left_ -= std::min<std::uint64_t>(*body_left_, n);
  return std::nullopt;
}

void HttpClient::finish() {
  if (conn_ && !conn_->reusable()) {
    received_closed_ += conn_->bytes_received();
    conn_.reset();
  }
  body_left_.reset();
}

void HttpClient::discard_body() {
  if (!conn_) return;
  std::array<std::byte, 16 * 1024> scratch;
  std::uint64_t discarded = 0;
  for (;;) {
    std::size_t n = 0;
    if (read_body(scratch, n) || n == 0) break;
    discarded += n;
    if (discarded > options_.max_discard_bytes) {
      received_closed_ += conn_->bytes_received();
      conn_.reset();
      break;
    }
  }
  finish();
}

void HttpClient::close() {
  if (conn_ && body_left_ && *body_left_ <= options_.max_discard_bytes) {
    discard_body();
    return;
  }
  if (conn_) received_closed_ += conn_->bytes_received();
  conn_.reset();
  body_left_.reset();
}

}  // namespace tensorgate::remote
