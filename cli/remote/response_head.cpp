#include "response_head.hpp"

#include <time.h>

#include <charconv>

namespace tensorgate::remote {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Digits only (no sign, no space), within 64 bits.
std::optional<std::uint64_t> number(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

}  // namespace

std::optional<ContentRange> parse_content_range(std::string_view text) {
  text = trim(text);
  if (text.size() < 6 || !iequals(text.substr(0, 5), "bytes") || text[5] != ' ') return std::nullopt;
  text = trim(text.substr(6));
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view range = text.substr(0, slash), total = text.substr(slash + 1);
  ContentRange out;
  if (total != "*") {
    out.total = number(total);
    if (!out.total) return std::nullopt;
  }
  if (range == "*") {
    if (!out.total) return std::nullopt;  // "bytes */*" says nothing
    return out;
  }
  const std::size_t dash = range.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  out.first = number(range.substr(0, dash));
  out.last = number(range.substr(dash + 1));
  if (!out.first || !out.last || *out.last < *out.first) return std::nullopt;
  if (out.total && *out.last >= *out.total) return std::nullopt;
  return out;
}

std::optional<std::chrono::seconds> parse_retry_after(std::string_view text,
                                                      std::chrono::system_clock::time_point now) {
  text = trim(text);
  if (auto seconds = number(text)) {
    constexpr std::uint64_t kYear = 366ull * 24 * 3600;  // beyond any wait anyone means
    return std::chrono::seconds(static_cast<std::int64_t>(std::min(*seconds, kYear)));
  }
  // IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT" (the obsolete forms are not sent by servers
  // written this century).
  if (text.size() != 29 || text.substr(25) != " GMT") return std::nullopt;
  const std::string copy(text);
  struct tm tm {};
  const char* end = ::strptime(copy.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!end || *end != '\0') return std::nullopt;
  const time_t when = ::timegm(&tm);
  if (when == static_cast<time_t>(-1)) return std::nullopt;
  const auto delta = std::chrono::system_clock::from_time_t(when) - now;
  if (delta <= std::chrono::system_clock::duration::zero()) return std::chrono::seconds(0);
  return std::chrono::ceil<std::chrono::seconds>(delta);
}

bool is_strong_etag(std::string_view etag) {
  if (etag.size() < 2 || etag.front() != '"' || etag.back() != '"') return false;
  for (const char c : etag.substr(1, etag.size() - 2)) {
    const auto b = static_cast<unsigned char>(c);
    if (b == '"' || b < 0x21 || b == 0x7f) return false;  // RFC 9110 etagc
  }
  return true;
}

std::string status_text(const ResponseHead& head) {
  std::string out = "HTTP " + std::to_string(head.status);
  if (!head.reason.empty()) out += " " + head.reason;
  return out;
}

}  // namespace tensorgate::remote
