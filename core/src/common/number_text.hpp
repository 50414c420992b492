#pragma once
// Numbers as messages and tables show them: %g-like, shortest exact, with thousands commas, shapes, hex.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>

namespace tensorgate::detail {

// v as printf's %.<digits>g writes it (std::to_chars's general format is specified to match).
inline std::string general(double v, int digits) {
  char buf[48];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  return std::string(buf, res.ptr);
}

// "0.00125", "inf", "nan": three significant digits.
inline std::string sci(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return general(v, 3);
}

// A value as it was read: the fewest %g digits that read back to the same double.
inline std::string exact(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  for (int digits = 1; digits < 17; ++digits) {
    const std::string shorter = general(v, digits);
    double back = 0;
    std::from_chars(shorter.data(), shorter.data() + shorter.size(), back);
    if (back == v) return shorter;
  }
  return general(v, 17);
}

// 1234567 as "1,234,567" (the audit's and the diff's text).
inline std::string commas(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

inline std::string shape_text(std::span<const std::uint64_t> shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// "0x3f80": at least 2 x `bytes` hex digits.
inline std::string hex(std::uint64_t v, unsigned bytes) {
  char buf[16];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, 16);
  const std::string digits(buf, res.ptr);
  return "0x" + std::string(digits.size() < 2 * bytes ? 2 * bytes - digits.size() : 0, '0') + digits;
}

}  // namespace tensorgate::detail
