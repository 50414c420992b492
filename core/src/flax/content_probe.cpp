#include "flax/content_probe.hpp"

#include "flax/fx_msgpack.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail::flax {
namespace {

// A first key longer than this is no state dict's (flax's keys are module and variable names).
constexpr std::uint64_t kMaxProbeKey = 1024;

}  // namespace

ProbeVerdict probe_checkpoint(std::string_view prefix, bool complete) {
  const auto* p = reinterpret_cast<const unsigned char*>(prefix.data());
  const std::size_t n = prefix.size();
  const ProbeVerdict short_one = complete ? ProbeVerdict::no : ProbeVerdict::undecided;
  if (n == 0) return short_one;
  const unsigned char b0 = p[0];
  if (!((b0 >= 0x81 && b0 <= 0x8f) || b0 == 0xde || b0 == 0xdf)) return ProbeVerdict::no;
  std::size_t at = 1 + static_cast<std::size_t>(head_size(b0));
  if (n < at + 1) return short_one;
  if (decode_item(b0, p + 1, 0).value == 0) return ProbeVerdict::no;
  const unsigned char k = p[at];
  if (!((k >= 0xa0 && k <= 0xbf) || k == 0xd9 || k == 0xda || k == 0xdb)) return ProbeVerdict::no;
  const std::size_t key_head = static_cast<std::size_t>(head_size(k));
  if (n < at + 1 + key_head) return short_one;
  const std::uint64_t len = decode_item(k, p + at + 1, at).value;
  if (len == 0 || len > kMaxProbeKey) return ProbeVerdict::no;
  at += 1 + key_head;
  if (n < at + len + 1) return short_one;  // the key, and the first value's type byte
  const std::string_view key = prefix.substr(at, static_cast<std::size_t>(len));
  if (!is_valid_utf8(key)) return ProbeVerdict::no;
  for (const char c : key)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return ProbeVerdict::no;
  if (head_size(p[at + len]) < 0) return ProbeVerdict::no;
  return ProbeVerdict::yes;
}

}  // namespace tensorgate::detail::flax
