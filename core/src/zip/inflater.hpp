#pragma once
// Raw deflate through zlib's streaming inflate: compressed bytes in, decompressed bytes out to
// a sink through one fixed 64 KiB window, so an entry of any size costs the same memory.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace tensorgate::detail::zip {

class Inflater {
 public:
  using Sink = std::function<void(const unsigned char*, std::size_t)>;
  Inflater();
  ~Inflater();
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  void reset();
  struct Step {
    std::size_t consumed = 0;  // compressed bytes used
    bool ended = false;        // the deflate stream ended (the rest is not this entry's)
    bool error = false;        // zlib refused the data (message())
  };
  // `budget`: the decompressed bytes (counted from the stream's start) the sink may see; the
  // step stops with `over_budget` set once the stream passes it, the sink having seen exactly
  // `budget` bytes.
  Step feed(const unsigned char* p, std::size_t n, const Sink& sink, std::uint64_t budget, bool& over_budget);
  std::uint64_t produced() const { return produced_; }
  const std::string& message() const { return message_; }

 private:
  struct State;
  std::unique_ptr<State> s_;
  std::uint64_t produced_ = 0;
  std::string message_;
};

}  // namespace tensorgate::detail::zip
