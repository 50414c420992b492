#include "ctranslate2/content_probe.hpp"

#include <cstdint>

namespace tensorgate::detail::ctranslate2 {
namespace {

constexpr std::size_t kMaxSpecName = 256;     // real ones are class names of under 40 bytes
constexpr std::size_t kMaxFirstName = 1024;   // a version 1 variable's, e.g. "encoder/layer_0/ffn/linear_0/weight"
constexpr std::uint32_t kMaxVariables = 1u << 20;

std::uint32_t le(std::string_view s, std::size_t at, std::size_t bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = bytes; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

bool class_name_char(char c, bool first) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (!first && c >= '0' && c <= '9');
}

bool visible(char c) { return c > ' ' && c < 0x7f; }

// A string of `length` bytes (its NUL counted) at `at`, each byte but the NUL passing `ok`.
template <class Ok>
bool string_at(std::string_view s, std::size_t at, std::size_t length, Ok ok) {
  if (s[at + length - 1] != '\0') return false;
  for (std::size_t i = 0; i + 1 < length; ++i)
    if (!ok(s[at + i], i == 0)) return false;
  return true;
}

}  // namespace

ProbeVerdict probe_model_bin(std::string_view prefix, bool complete) {
  // Not there yet: wait for more, or, when there is no more, no model.bin.
  const auto short_of = [&](std::size_t bytes) { return prefix.size() < bytes; };
  const ProbeVerdict missing = complete ? ProbeVerdict::no : ProbeVerdict::undecided;
  if (short_of(4)) return missing;
  const std::uint32_t version = le(prefix, 0, 4);
  if (version < 1 || version > 6) return ProbeVerdict::no;
  if (version >= 2) {
    if (short_of(6)) return missing;
    const std::size_t length = le(prefix, 4, 2);
    if (length < 2 || length - 1 > kMaxSpecName) return ProbeVerdict::no;
    if (short_of(6 + length)) return missing;
    return string_at(prefix, 6, length, class_name_char) ? ProbeVerdict::yes : ProbeVerdict::no;
  }
  if (short_of(10)) return missing;
  const std::uint32_t variables = le(prefix, 4, 4);
  const std::size_t length = le(prefix, 8, 2);
  if (variables == 0 || variables > kMaxVariables || length < 2 || length - 1 > kMaxFirstName) return ProbeVerdict::no;
  if (short_of(10 + length + 1)) return missing;
  if (!string_at(prefix, 10, length, [](char c, bool) { return visible(c); })) return ProbeVerdict::no;
  const std::size_t rank = static_cast<unsigned char>(prefix[10 + length]);
  if (rank > 8) return ProbeVerdict::no;
  const std::size_t item = 10 + length + 1 + 4 * rank;
  if (short_of(item + 1)) return missing;
  const auto size = static_cast<unsigned char>(prefix[item]);
  return size == 1 || size == 2 || size == 4 ? ProbeVerdict::yes : ProbeVerdict::no;
}

}  // namespace tensorgate::detail::ctranslate2
