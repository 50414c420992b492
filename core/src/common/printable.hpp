#pragma once
// Quote untrusted text for a finding's message: at most `max` bytes, control characters and
// quotes escaped, so a message stays one short readable line whatever the file holds.
#include <string>
#include <string_view>

namespace tensorgate::detail {

std::string quoted(std::string_view text, std::size_t max = 40);

// Control characters and invalid UTF-8 escaped, nothing else, no limit: for paths and
// messages in text output.
std::string printable(std::string_view text);

// True when the text holds an ASCII control character (below 0x20, or DEL): a name that would
// move a terminal's cursor or split a log line.
inline bool has_control(std::string_view text) {
  for (const char ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return true;
  return false;
}

}  // namespace tensorgate::detail
