#include "tensorgate/json_writer.hpp"

#include "common/json_escape.hpp"
#include "tensorgate/utf8.hpp"

#include <charconv>
#include <cmath>

namespace tensorgate {

void append_json_string_lossy(std::string& out, std::string_view s) {
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
