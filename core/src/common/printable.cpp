#include "common/printable.hpp"

#include "tensorgate/utf8.hpp"

namespace tensorgate::detail {

namespace {

// Appends text[0, limit) with control characters and invalid UTF-8 escaped, and quotes and
// backslashes too when `quotes`.
void append_escaped(std::string& out, std::string_view text, std::size_t limit, bool quotes) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (quotes && (c == '"' || c == '\\')) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c >= 0x80) {
      // Valid UTF-8 is kept; any other byte is shown as \xNN, so messages stay valid UTF-8.
      const std::size_t n = utf8_sequence_length(text.substr(0, limit), i);
      if (n == 0) {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out.append(text.data() + i, n);
        i += n - 1;
      }
    } else {
      out += static_cast<char>(c);
    }
  }
}

}  // namespace

std::string quoted(std::string_view text, std::size_t max) {
  std::size_t limit = text.size() < max ? text.size() : max;
  // Never cut a UTF-8 sequence in half: back off to the start of the cut character.
  while (limit > 0 && limit < text.size() && (static_cast<unsigned char>(text[limit]) & 0xc0) == 0x80)
    --limit;
  std::string out = "\"";
  append_escaped(out, text, limit, true);
  if (limit < text.size()) out += "...";
  out += '"';
  return out;
}

std::string printable(std::string_view text) {
  std::string out;
  append_escaped(out, text, text.size(), false);
  return out;
}

}  // namespace tensorgate::detail
