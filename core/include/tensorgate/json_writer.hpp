#pragma once
// A streaming JSON writer: reports can be larger than we want to hold (a 1,000,000-tensor
// inventory), so they are written as they are produced, to a sink, in 64 KiB pieces. Strings
// are always valid UTF-8 on output: invalid bytes (file paths, GGUF names) become U+FFFD.
#include <cassert>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace tensorgate {

class JsonWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  explicit JsonWriter(Sink sink);
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  // The writers of one value are inline: a report is millions of short strings and small
  // numbers, and a call apiece was most of what writing cost.
  void key(std::string_view k) {
    before_value();
    put_string(k);
    put(':');
    need_comma_ = false;  // the value follows the colon
  }
  // A key the code spells itself, a string literal: printable ASCII with no '"' or '\\' (the
  // report writers' field names), copied without the scan. Checked where asserts are on.
  template <std::size_t N>
  void key(const char (&k)[N]) {
    assert(k[N - 1] == '\0' && plain_ascii_run(k, N - 1) == N - 1);
    before_value();
    char* at = room(N + 2);
    at[0] = '"';
    std::memcpy(at + 1, k, N - 1);
    at[N] = '"';
    at[N + 1] = ':';
    used_ += N + 2;
    need_comma_ = false;
  }
  void string(std::string_view s) {
    before_value();
    put_string(s);
  }
  void number(std::uint64_t v) {
    before_value();
    char* at = room(24);
    used_ += static_cast<std::size_t>(std::to_chars(at, at + 24, v).ptr - at);
  }
  void number(std::int64_t v) {
    before_value();
    char* at = room(24);
    used_ += static_cast<std::size_t>(std::to_chars(at, at + 24, v).ptr - at);
  }
  void number(double v);
  void boolean(bool b);
  void null();
  // A value already serialized as JSON (trusted input only).
  void raw(std::string_view json);

  // key + value shorthands
  template <typename T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }
  template <std::size_t N, typename T>
  void field(const char (&k)[N], const T& v) {
    key(k);
    value(v);
  }
  void value(std::string_view s) { string(s); }
  void value(const std::string& s) { string(s); }
  void value(const char* s) { string(s); }
  void value(bool b) { boolean(b); }
  void value(std::uint64_t v) { number(v); }
  void value(std::uint32_t v) { number(std::uint64_t{v}); }
  void value(std::int64_t v) { number(v); }
  void value(int v) { number(std::int64_t{v}); }
  void value(double v) { number(v); }

  // Hands what is buffered to the sink.
  void flush();
  // Bytes written so far, flushed or not.
  std::uint64_t written() const { return flushed_ + used_; }

 private:
  // The output buffer, allocated once: every piece is copied into it, and the sink gets it
  // whole when it is full (or at flush), so a report costs one copy and a sink call per 64 KiB.
  static constexpr std::size_t kBufferBytes = std::size_t{1} << 16;

  // The comma (or nothing) before a value. Nesting needs no stack: after any value or closed
  // container the next sibling needs a comma; after an opening bracket or a key it does not.
  // Values at the top level (depth 0) are written one after another, without commas.
  void before_value() {
    if (need_comma_ && depth_ > 0) put(',');
    need_comma_ = true;
  }
  void open(char bracket) {
    before_value();
    put(bracket);
    ++depth_;
    need_comma_ = false;
  }
  void close(char bracket) {
    --depth_;
    put(bracket);
    need_comma_ = true;
  }
  void put(char c) {
    if (used_ == kBufferBytes) flush();
    buf_[used_++] = c;
  }
  void put(std::string_view s);
  // Quoted and escaped, invalid UTF-8 as U+FFFD. Most strings need no escape and fit: one scan,
  // one copy; the others take put_string_slow.
  void put_string(std::string_view s) {
    if (s.size() + 2 <= kBufferBytes - used_ && plain_ascii_run(s.data(), s.size()) == s.size()) {
      char* at = buf_.get() + used_;
      at[0] = '"';
      if (!s.empty()) std::memcpy(at + 1, s.data(), s.size());  // an empty view's data() may be null
      at[s.size() + 1] = '"';
      used_ += s.size() + 2;
      return;
    }
    put_string_slow(s);
  }
  void put_string_slow(std::string_view s);
  static std::size_t plain_ascii_run(const char* p, std::size_t n);  // common/json_escape.hpp's plain_run
  // Room for `n` (at most kBufferBytes) more bytes, flushing first if needed.
  char* room(std::size_t n) {
    if (kBufferBytes - used_ < n) flush();
    return buf_.get() + used_;
  }

  Sink sink_;
  std::unique_ptr<char[]> buf_;
  std::size_t used_ = 0;
  std::uint64_t flushed_ = 0;
  std::uint32_t depth_ = 0;
  bool need_comma_ = false;
};

// Appends `s` as a JSON string literal (quotes included), invalid UTF-8 replaced by U+FFFD.
void append_json_string_lossy(std::string& out, std::string_view s);

}  // namespace tensorgate
