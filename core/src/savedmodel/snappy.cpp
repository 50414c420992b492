#include "savedmodel/snappy.hpp"

namespace tensorgate::detail::savedmodel {
namespace {

std::uint64_t le(std::string_view s, std::size_t pos, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(s[pos + i]);
  return v;
}

}  // namespace

std::optional<std::string> snappy_uncompress(std::string_view in, std::uint64_t max_out, std::string& error) {
  std::size_t pos = 0;
  std::uint64_t length = 0;
  for (unsigned i = 0;; ++i) {
    if (i == 5 || pos >= in.size()) {
      error = "its uncompressed length is malformed";
      return std::nullopt;
    }
    const auto b = static_cast<unsigned char>(in[pos++]);
    length |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
    if (!(b & 0x80)) break;
  }
  if (length > max_out) {
    error = "it says it uncompresses to " + std::to_string(length) + " bytes, more than this checker reads (" +
            std::to_string(max_out) + ")";
    return std::nullopt;
  }
  std::string out;
  out.reserve(length);
  while (pos < in.size()) {
    const auto tag = static_cast<unsigned char>(in[pos++]);
    std::uint64_t len = 0, offset = 0;
    unsigned extra = 0;
    switch (tag & 3) {
      case 0:  // a literal: its length - 1 in the tag, or in 1-4 bytes after it
        len = tag >> 2;
        if (len >= 60) {
          extra = static_cast<unsigned>(len) - 59;
          if (extra > in.size() - pos) {
            error = "a literal's length runs past the input";
            return std::nullopt;
          }
          len = le(in, pos, extra);
          pos += extra;
        }
        ++len;
        if (len > in.size() - pos || len > length - out.size()) {
          error = "a literal runs past the input or the stated length";
          return std::nullopt;
        }
        out.append(in.substr(pos, len));
        pos += len;
        continue;
      case 1: extra = 1; len = 4 + ((tag >> 2) & 7); break;
      case 2: extra = 2; len = 1 + (tag >> 2); break;
      default: extra = 4; len = 1 + (tag >> 2); break;
    }
    if (extra > in.size() - pos) {
      error = "an element runs past the input";
      return std::nullopt;
    }
    offset = (tag & 3) == 1 ? ((std::uint64_t{tag} >> 5) << 8 | static_cast<unsigned char>(in[pos])) : le(in, pos, extra);
    pos += extra;
    if (offset == 0 || offset > out.size() || len > length - out.size()) {
      error = "a back-reference points before the start or runs past the stated length";
      return std::nullopt;
    }
    // Byte by byte: a reference may overlap what it writes (a run).
    const std::size_t from = out.size() - offset;
    for (std::uint64_t i = 0; i < len; ++i) out.push_back(out[from + i]);
  }
  if (out.size() != length) {
    error = "it uncompresses to " + std::to_string(out.size()) + " bytes, not the " + std::to_string(length) + " it states";
    return std::nullopt;
  }
  return out;
}

}  // namespace tensorgate::detail::savedmodel
