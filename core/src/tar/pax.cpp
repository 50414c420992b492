#include "tar/pax.hpp"

namespace tensorgate::detail::tar {

PaxParse parse_pax(std::string_view buf) {
  PaxRecords r;
  std::size_t pos = 0;
  while (pos < buf.size() && buf[pos] != '\0') {
    std::size_t digits = 0;
    while (pos + digits < buf.size() && digits < 21 && buf[pos + digits] >= '0' && buf[pos + digits] <= '9') ++digits;
    if (digits == 0 || digits > 20 || pos + digits >= buf.size() || buf[pos + digits] != ' ')
      return {std::nullopt, "a pax record at byte " + std::to_string(pos) + " does not begin with its length and a space"};
    std::uint64_t length = 0;
    for (std::size_t i = 0; i < digits; ++i) {
      if (length > (UINT64_MAX - 9) / 10) return {std::nullopt, "a pax record's length is past the header"};
      length = length * 10 + static_cast<unsigned>(buf[pos + i] - '0');
    }
    if (length < 5) return {std::nullopt, "a pax record is shorter than 5 bytes"};
    if (length > buf.size() - pos) return {std::nullopt, "a pax record's length is past the header"};
    const std::size_t last = pos + static_cast<std::size_t>(length) - 1;
    const std::size_t start = pos + digits + 1;
    const std::string_view kv = start <= last ? buf.substr(start, last - start) : std::string_view();
    const std::size_t eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0 || buf[last] != '\n')
      return {std::nullopt, "a pax record at byte " + std::to_string(pos) + " is not keyword=value and a newline"};
    const std::string_view key = kv.substr(0, eq), value = kv.substr(eq + 1);
    if (key == "path") {
      std::string v(value);
      v.erase(v.find_last_not_of('/') + 1);
      r.path = std::move(v);
    } else if (key == "linkpath") {
      r.linkpath = std::string(value);
    } else if (key == "size") {
      r.size = std::string(value);
    } else if (key.starts_with("GNU.sparse.")) {
      r.sparse = true;
    }
    pos += static_cast<std::size_t>(length);
  }
  return {std::move(r), {}};
}

}  // namespace tensorgate::detail::tar
