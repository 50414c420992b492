#include "tensorgate/json_writer.hpp"

#include "common/json_escape.hpp"
#include "tensorgate/utf8.hpp"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace tensorgate {

void append_json_string_lossy(std::string& out, std::string_view s) {
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t run = detail::plain_run(s.data() + i, s.size() - i, true);
    out.append(s.data() + i, run);
    i += run;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      detail::append_escape(out, c);
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      out.append(s.data() + i, n);
      i += n;
    }
  }
  out += '"';
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

// As append_json_string_lossy, into the buffer: the runs that need no escape are copied whole.
void JsonWriter::put_string_slow(std::string_view s) {
  put('"');
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t run = detail::plain_run(s.data() + i, s.size() - i, true);
    put(s.substr(i, run));
    i += run;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      std::string escape;
      detail::append_escape(escape, c);
      put(escape);
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(s, i);
    put(n == 0 ? std::string_view("\xEF\xBF\xBD") : s.substr(i, n));  // U+FFFD for a byte that starts no sequence
    i += n == 0 ? 1 : n;
  }
  put('"');
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
  sink_(std::string_view(buf_.get(), n));
}

}  // namespace tensorgate
