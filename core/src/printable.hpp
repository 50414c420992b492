#pragma once
// Quote untrusted text for a finding's message: at most `max` bytes, control characters and
// quotes escaped, so a message stays one short readable line whatever the file holds.
#include <string>
#include <string_view>

namespace tensorgate::detail {

std::string quoted(std::string_view text, std::size_t max = 40);

}  // namespace tensorgate::detail
