#pragma once
// A streaming JSON writer: reports can be larger than we want to hold (a 1,000,000-tensor
// inventory), so they are written as they are produced, to a sink, in 64 KiB pieces. Strings
// are always valid UTF-8 on output: invalid bytes (file paths, GGUF names) become U+FFFD.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate {

class JsonWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  explicit JsonWriter(Sink sink) : sink_(std::move(sink)) {}
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view k);
  void string(std::string_view s);
  void number(std::uint64_t v);
  void number(std::int64_t v);
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
  void value(std::string_view s) { string(s); }
  void value(const std::string& s) { string(s); }
  void value(const char* s) { string(s); }
  void value(bool b) { boolean(b); }
  void value(std::uint64_t v) { number(v); }
  void value(std::uint32_t v) { number(std::uint64_t{v}); }
  void value(std::int64_t v) { number(v); }
  void value(int v) { number(std::int64_t{v}); }
  void value(double v) { number(v); }

  void flush();

 private:
  void before_value();
  void put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= (1u << 16)) flush();
  }

  Sink sink_;
  std::string buf_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends `s` as a JSON string literal (quotes included), invalid UTF-8 replaced by U+FFFD.
void append_json_string_lossy(std::string& out, std::string_view s);

}  // namespace tensorgate
