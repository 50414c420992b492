#pragma once
// A table's strings without pointers: every string laid end to end in one char array, with where
// each one starts, all filled in by the compiler.
//
// Why: a table of string_views (or const char*) holds addresses, and the release executable is a
// static PIE, so each address is a relocation that every start writes. That puts the whole table
// in the writable segment, whose pages are copied at every start: ~4 us a page on a VM, for
// tables a check mostly never reads (the rule catalogue alone was 14 KB,
// bench/README.md). A pool holds only characters and offsets, so it stays in read-only data,
// shared and mapped on demand; the string_views are made when a string is asked for.
//
// Use: the strings come from a captureless lambda returning a std::array of string_views, which
// runs only at compile time:
//   constexpr auto kNames = make_string_pool([] { return std::to_array<std::string_view>({"a", "bc"}); });
//   kNames[1] == "bc"
// (std::to_array, not std::array's deduction guide: clang's guide is a fold expression, which
// stops at 256 elements.)
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tensorgate::detail {

template <std::size_t Count, std::size_t Bytes>
struct StringPool {
  std::array<char, Bytes> chars{};
  std::array<std::uint32_t, Count + 1> starts{};  // string i is chars[starts[i], starts[i + 1])

  constexpr std::string_view operator[](std::size_t i) const {
    return {chars.data() + starts[i], starts[i + 1] - starts[i]};
  }
  static constexpr std::size_t size() { return Count; }
};

template <std::size_t Count>
consteval std::size_t pooled_bytes(const std::array<std::string_view, Count>& strings) {
  std::size_t bytes = 0;
  for (const std::string_view s : strings) bytes += s.size();
  return bytes;
}

template <typename Strings>
consteval auto make_string_pool(Strings) {
  constexpr auto strings = Strings{}();
  StringPool<strings.size(), pooled_bytes(strings)> pool{};
  std::size_t at = 0;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    pool.starts[i] = static_cast<std::uint32_t>(at);
    for (const char c : strings[i]) pool.chars[at++] = c;  // one loop per string: GCC bounds a loop's steps
  }
  pool.starts[strings.size()] = static_cast<std::uint32_t>(at);
  return pool;
}

}  // namespace tensorgate::detail
