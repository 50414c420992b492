#include "printable.hpp"

namespace tensorgate::detail {

std::string quoted(std::string_view text, std::size_t max) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t limit = text.size() < max ? text.size() : max;
  // Never cut a UTF-8 sequence in half: back off to the start of the cut character.
  while (limit > 0 && limit < text.size() && (static_cast<unsigned char>(text[limit]) & 0xc0) == 0x80)
    --limit;
  std::string out = "\"";
  for (std::size_t i = 0; i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (limit < text.size()) out += "...";
  out += '"';
  return out;
}

}  // namespace tensorgate::detail
