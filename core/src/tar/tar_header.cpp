// tarfile's header parse (TarInfo.frombuf, nti, nts, calc_chksums), byte for byte: what it
// accepts is a tar to torch.load, whatever the file's name or first bytes otherwise say.
#include "tar/tar_header.hpp"

#include <algorithm>
#include <cstring>

namespace tensorgate::detail::tar {
namespace {

// str.strip()'s ASCII whitespace (int() strips the same).
bool py_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f'); }

std::string_view py_strip(std::string_view s) {
  while (!s.empty() && py_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && py_space(s.back())) s.remove_suffix(1);
  return s;
}

// nts: up to the first NUL.
std::string_view nts(std::string_view field) { return field.substr(0, std::min(field.find('\0'), field.size())); }

// int(text, base) for base 8 or 10, within int64 (larger is refused: no real header needs it).
std::optional<std::int64_t> parse_int(std::string_view text, int base) {
  std::string_view s = py_strip(text);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  bool prefixed = false;
  if (base == 8 && s.size() >= 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    s.remove_prefix(2);
    prefixed = true;  // "0o_7" is valid: an underscore may follow the prefix
  }
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  bool last_digit = prefixed;  // whether an underscore may come next
  bool any = false;
  for (const char c : s) {
    if (c == '_') {
      if (!last_digit) return std::nullopt;
      last_digit = false;
      continue;
    }
    const int d = c - '0';
    if (d < 0 || d >= base) return std::nullopt;
    if (v > (INT64_MAX - d) / base) return std::nullopt;
    v = v * base + d;
    last_digit = any = true;
  }
  if (!any || !last_digit) return std::nullopt;  // a trailing underscore
  return negative ? -v : v;
}

// nti: base-256 after 0x80 (positive) or 0xFF (negative), else octal text.
std::optional<std::int64_t> nti(std::string_view field) {
  const auto b0 = static_cast<unsigned char>(field[0]);
  if (b0 == 0x80 || b0 == 0xff) {
    // The bytes after the first, big-endian: a positive number, or (0xFF) that number minus
    // 256^(bytes), i.e. two's complement. Python's integers have no bound; values past int64
    // saturate (as a size they run past any input, as a checksum they match no block).
    const bool negative = b0 == 0xff;
    const std::size_t k = field.size() - 1;
    std::uint64_t v = 0;
    bool past = false;
    for (std::size_t i = 1; i <= k; ++i) {
      const auto byte = static_cast<unsigned char>(field[i]);
      if (k > 8 && i <= k - 8) {
        past = past || byte != (negative ? 0xff : 0);
        continue;
      }
      v = (v << 8) | byte;
    }
    if (!negative) return past || v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(v);
    if (k < 8) return static_cast<std::int64_t>(v) - (std::int64_t{1} << (8 * k));
    return past || !(v >> 63) ? INT64_MIN : static_cast<std::int64_t>(v);
  }
  const std::string_view text = nts(field);
  if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    return std::nullopt;  // decode("ascii", "strict") raises
  const std::string_view stripped = py_strip(text);
  if (stripped.empty()) return 0;
  return parse_int(stripped, 8);
}

bool checksum_matches(std::string_view b, std::int64_t chksum) {
  std::int64_t unsigned_sum = 256, signed_sum = 256;
  for (std::size_t i = 0; i < kBlock; ++i) {
    if (i >= 148 && i < 156) continue;
    unsigned_sum += static_cast<unsigned char>(b[i]);
    signed_sum += static_cast<signed char>(b[i]);
  }
  return chksum == unsigned_sum || chksum == signed_sum;
}

}  // namespace

std::optional<std::int64_t> python_int(std::string_view text) { return parse_int(text, 10); }

bool is_regular(char t) { return t == type::regular || t == type::aregular || t == type::contiguous || t == type::gnu_sparse; }

bool has_data(char t) {
  constexpr std::string_view kSupported("\0" "1234567LKS", 11);  // tarfile's SUPPORTED_TYPES, '0' aside
  return is_regular(t) || kSupported.find(t) == std::string_view::npos;
}

ParsedBlock parse_tar_block(std::string_view b) {
  ParsedBlock out;
  if (std::all_of(b.begin(), b.end(), [](char c) { return c == '\0'; })) {
    out.kind = BlockKind::zeros;
    return out;
  }
  const auto chksum = nti(b.substr(148, 8));
  if (!chksum) return {BlockKind::invalid, {}, "its checksum field is not a number"};
  if (!checksum_matches(b, *chksum)) return {BlockKind::invalid, {}, "its checksum does not match"};
  // The number fields tarfile reads (mode, uid, gid, size, mtime, devmajor, devminor).
  constexpr std::pair<std::size_t, std::size_t> kNumbers[] = {{100, 8}, {108, 8}, {116, 8}, {136, 12}, {329, 8}, {337, 8}};
  for (const auto& [at, len] : kNumbers)
    if (!nti(b.substr(at, len))) return {BlockKind::invalid, {}, "a number field (at byte " + std::to_string(at) + ") is not a number"};
  const auto size = nti(b.substr(124, 12));
  if (!size) return {BlockKind::invalid, {}, "its size field is not a number"};
  TarHeader& h = out.header;
  h.size = *size;
  h.type = b[156];
  h.name = std::string(nts(b.substr(0, 100)));
  h.linkname = std::string(nts(b.substr(157, 100)));
  const std::string_view prefix = nts(b.substr(345, 155));
  if (h.type == type::aregular && h.name.ends_with('/')) h.type = type::dir;
  if (h.type == type::dir) h.name.erase(h.name.find_last_not_of('/') + 1);
  const bool gnu = h.type == type::gnu_longname || h.type == type::gnu_longlink || h.type == type::gnu_sparse;
  if (!prefix.empty() && !gnu) h.name = std::string(prefix) + "/" + h.name;
  out.kind = BlockKind::header;
  return out;
}

bool starts_as_tar(std::string_view prefix) {
  return prefix.size() >= kBlock && parse_tar_block(prefix.substr(0, kBlock)).kind == BlockKind::header;
}

}  // namespace tensorgate::detail::tar
