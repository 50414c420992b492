#include "synthetic_header.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace tgbench {
namespace {

// The header padded with spaces to a multiple of 8, behind its 8-byte little-endian length.
SyntheticHeader framed(std::string h, std::uint64_t data_length) {
  h.append((8 - h.size() % 8) % 8, ' ');
  SyntheticHeader out;
  const std::uint64_t n = h.size();
  for (int i = 0; i < 8; ++i) out.file_prefix += static_cast<char>((n >> (8 * i)) & 0xff);
  out.file_prefix += h;
  out.data_length = data_length;
  return out;
}

}  // namespace

SyntheticHeader make_header(std::uint64_t count) {
  static constexpr std::array<std::string_view, 7> kParts{"attn.q", "attn.k",  "attn.v", "attn.o",
                                                        "mlp.gate", "mlp.up", "mlp.down"};
  static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 3> kDtypes{
      {{"BF16", 2}, {"F32", 4}, {"F16", 2}}};
  std::string h = "{\"__metadata__\":{\"format\":\"pt\"}";
  h.reserve(count * 96 + 64);
  std::uint64_t offset = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto& [dtype, size] = kDtypes[i % kDtypes.size()];
    const std::uint64_t rows = 4, cols = 4 + i % 5;
    const std::uint64_t bytes = rows * cols * size;
    h += ",\"model.layers.";
    h += std::to_string(i / kParts.size());
    h += '.';
    h += kParts[i % kParts.size()];
    h += "\":{\"dtype\":\"";
    h += dtype;
    h += "\",\"shape\":[";
    h += std::to_string(rows);
    h += ',';
    h += std::to_string(cols);
    h += "],\"data_offsets\":[";
    h += std::to_string(offset);
    h += ',';
    h += std::to_string(offset + bytes);
    h += "]}";
    offset += bytes;
  }
  h += '}';
  return framed(std::move(h), offset);
}

SyntheticHeader not_plain_at_end(const SyntheticHeader& plain) {
  std::string h = plain.file_prefix.substr(8);
  h.erase(h.find_last_not_of(' '));  // the closing brace and the padding
  h += " }";
  return framed(std::move(h), plain.data_length);
}

}  // namespace tgbench
