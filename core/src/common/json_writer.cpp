#include "tensorgate/json_writer.hpp"

#include "common/json_escape.hpp"
#include "tensorgate/utf8.hpp"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace tensorgate {

namespace {

// `s` as a JSON string literal, invalid UTF-8 as U+FFFD, handed to `put` in pieces: the runs
// that need no escape whole, then each escape or UTF-8 sequence. The one loop behind both the
// writer and append_json_string_lossy.
template <typename Put>
void lossy_literal(std::string_view s, Put&& put) {
  put(std::string_view("\""));
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t run = detail::plain_run(s.data() + i, s.size() - i, true);
    put(s.substr(i, run));
    i += run;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      std::string escape;  // at most 6 bytes: no allocation
      detail::append_escape(escape, c);
      put(std::string_view(escape));
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(s, i);
    put(n == 0 ? std::string_view("\xEF\xBF\xBD") : s.substr(i, n));  // U+FFFD for a byte that starts no sequence
    i += n == 0 ? 1 : n;
  }
  put(std::string_view("\""));
}

}  // namespace

void append_json_string_lossy(std::string& out, std::string_view s) {
  lossy_literal(s, [&out](std::string_view piece) { out.append(piece); });
}

JsonWriter::JsonWriter(Sink sink) : sink_(std::move(sink)), buf_(new char[kBufferBytes]) {}

void JsonWriter::put(std::string_view s) {
  while (!s.empty()) {
    if (used_ == kBufferBytes) flush();
    const std::size_t n = std::min(s.size(), kBufferBytes - used_);
    std::memcpy(buf_.get() + used_, s.data(), n);
    used_ += n;
    s.remove_prefix(n);
  }
}

std::size_t JsonWriter::plain_ascii_run(const char* p, std::size_t n) { return detail::plain_run(p, n, true); }

// The strings the inline path does not take: escapes, UTF-8, or more than the buffer has room for.
void JsonWriter::put_string_slow(std::string_view s) {
  lossy_literal(s, [this](std::string_view piece) { put(piece); });
}

void JsonWriter::number(double v) {
  before_value();
  if (!std::isfinite(v)) {
    put("null");
    return;
  }
  char* at = room(32);
  used_ += static_cast<std::size_t>(std::to_chars(at, at + 32, v).ptr - at);
}

void JsonWriter::boolean(bool b) {
  before_value();
  put(b ? std::string_view("true") : std::string_view("false"));
}

void JsonWriter::null() {
  before_value();
  put(std::string_view("null"));
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  put(json);
}

void JsonWriter::flush() {
  if (used_ == 0) return;
  const std::size_t n = used_;
  used_ = 0;
  flushed_ += n;
  sink_(std::string_view(buf_.get(), n));
}

}  // namespace tensorgate
