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

}  // namespace tensorgate::detail
