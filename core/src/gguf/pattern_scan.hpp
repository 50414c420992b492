#pragma once
// Looks for the CVE-2024-34359 payload names in a chat template that arrives in pieces, keeping
// only the last few bytes between pieces: a template is streamed, never buffered whole.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tensorgate::detail::gguf {

class PatternScan {
 public:
  // Jinja2 sandbox escapes seen in the wild: reaching the interpreter through an object's
  // class hierarchy or globals, then importing os or calling popen.
  static constexpr std::array<std::string_view, 6> kPatterns = {
      "__globals__", "__class__", "__mro__", "__subclasses__", "__import__", "popen"};

  void reset() {
    tail_len_ = 0;
    found_ = 0;
  }
  void feed(std::string_view piece);
  std::uint32_t found() const { return found_; }  // bit i: kPatterns[i]
  std::string found_list() const;                 // "__globals__, popen"

 private:
  static constexpr std::size_t kKeep = 13;  // longest pattern minus one
  void search(std::string_view text);

  std::array<char, 2 * kKeep> tail_{};
  std::size_t tail_len_ = 0;
  std::uint32_t found_ = 0;
};

}  // namespace tensorgate::detail::gguf
