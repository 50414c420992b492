#include "tensorgate/json_writer.hpp"

#include <charconv>
#include <cmath>

namespace tensorgate {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not valid (RFC 3629: no
// overlongs, no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  const std::size_t left = s.size() - i;
  const auto cont = [&](std::size_t k) { return k < left && (b(k) & 0xc0) == 0x80; };
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xe0 && b(1) < 0xa0) return 0;  // overlong
    if (c == 0xed && b(1) > 0x9f) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xf0 && b(1) < 0x90) return 0;  // overlong
    if (c == 0xf4 && b(1) > 0x8f) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

void append_json_string_lossy(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      std::size_t j = i + 1;
      while (j < s.size()) {
        const auto d = static_cast<unsigned char>(s[j]);
        if (d < 0x20 || d >= 0x80 || d == '"' || d == '\\') break;
        ++j;
      }
      out.append(s.data() + i, j - i);
      i = j;
      continue;
    }
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence(s, i);
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

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) buf_ += ',';
    first_.back() = false;
  }
}

void JsonWriter::begin_object() {
  before_value();
  put("{");
  first_.push_back(true);
}

void JsonWriter::end_object() {
  first_.pop_back();
  put("}");
}

void JsonWriter::begin_array() {
  before_value();
  put("[");
  first_.push_back(true);
}

void JsonWriter::end_array() {
  first_.pop_back();
  put("]");
}

void JsonWriter::key(std::string_view k) {
  before_value();
  append_json_string_lossy(buf_, k);
  buf_ += ':';
  after_key_ = true;
}

void JsonWriter::string(std::string_view s) {
  before_value();
  append_json_string_lossy(buf_, s);
  if (buf_.size() >= (1u << 16)) flush();
}

void JsonWriter::number(std::uint64_t v) {
  before_value();
  char tmp[24];
  put(std::string_view(tmp, static_cast<std::size_t>(std::to_chars(tmp, tmp + sizeof tmp, v).ptr - tmp)));
}

void JsonWriter::number(std::int64_t v) {
  before_value();
  char tmp[24];
  put(std::string_view(tmp, static_cast<std::size_t>(std::to_chars(tmp, tmp + sizeof tmp, v).ptr - tmp)));
}

void JsonWriter::number(double v) {
  before_value();
  if (!std::isfinite(v)) {
    put("null");
    return;
  }
  char tmp[32];
  put(std::string_view(tmp, static_cast<std::size_t>(std::to_chars(tmp, tmp + sizeof tmp, v).ptr - tmp)));
}

void JsonWriter::boolean(bool b) {
  before_value();
  put(b ? "true" : "false");
}

void JsonWriter::null() {
  before_value();
  put("null");
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  put(json);
}

void JsonWriter::flush() {
  if (buf_.empty()) return;
  sink_(buf_);
  buf_.clear();
}

}  // namespace tensorgate
