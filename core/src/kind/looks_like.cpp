// What content of no model format looks like, for FK.unknown's message: a few signatures of
// what a model repository's checkout or a broken download holds instead of weights; Git LFS
// pointers parsed for FK.lfs-pointer.
#include <algorithm>
#include <cctype>
#include <string>

#include "common/printable.hpp"
#include "kind/classify.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail::kind {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct Signature {
  std::string_view magic;
  std::size_t at;
  std::string_view what;
};

constexpr Signature kSignatures[] = {
    {"\x1f\x8b", 0, "gzip-compressed data (not a compressed joblib pickle: it does not inflate to one)"},
    {"BZh", 0, "bzip2-compressed data"},
    {"\xfd" "7zXZ", 0, "xz-compressed data"},
    {"\x28\xb5\x2f\xfd", 0, "zstd-compressed data"},
    {"7z\xbc\xaf\x27\x1c", 0, "a 7-Zip archive"},
    {"\x89HDF\r\n\x1a\n", 0, "an HDF5 file (Keras .h5 weights; tensorgate does not read HDF5)"},
    {"\x89PNG", 0, "a PNG image"},
    {"\xff\xd8\xff", 0, "a JPEG image"},
    {"%PDF", 0, "a PDF document"},
    {"TFL3", 4, "a TensorFlow Lite model (tensorgate does not read it)"},
    {"ustar", 257, "a tar archive"},
};

// The first line, for a message: at most 40 printable bytes, quoted.
std::string first_line(std::string_view text) {
  const std::size_t nl = text.find('\n');
  return quoted(text.substr(0, nl), 40);
}

}  // namespace

std::string describe_unknown(std::string_view prefix) {
  for (const Signature& s : kSignatures)
    if (prefix.size() >= s.at + s.magic.size() && prefix.substr(s.at, s.magic.size()) == s.magic) return std::string(s.what);
  std::string_view text = prefix;
  if (text.starts_with("\xef\xbb\xbf")) text.remove_prefix(3);
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  const std::string_view body = start == std::string_view::npos ? std::string_view() : text.substr(start);
  // A prefix cut inside a UTF-8 sequence is still text: drop up to 3 trailing bytes to check.
  bool utf8 = false;
  for (std::size_t cut = 0; cut < 4 && cut <= prefix.size() && !utf8; ++cut) utf8 = is_valid_utf8(prefix.substr(0, prefix.size() - cut));
  std::size_t controls = 0;
  for (const char c : prefix) {
    const auto u = static_cast<unsigned char>(c);
    controls += u < 0x20 && u != '\n' && u != '\r' && u != '\t' && u != '\f';
  }
  const bool texty = utf8 && controls == 0;
  const std::string head = lower(body.substr(0, 64));
  if (texty && (head.starts_with("<!doctype html") || head.starts_with("<html") || head.starts_with("<head") ||
                head.find("<html") != std::string::npos))
    return "an HTML page (an error or login page saved in place of the file?) beginning " + first_line(body);
  if (texty && head.starts_with("<?xml")) return "XML text beginning " + first_line(body);
  if (texty && (head.starts_with("{") || head.starts_with("["))) return "JSON text beginning " + first_line(body);
  if (texty && !body.empty()) return "text beginning " + first_line(body);
  if (texty) return "whitespace only";
  std::string what = "binary data";
  if (prefix.size() >= 8) {
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(prefix[static_cast<std::size_t>(i)]);
    what += " (read as a safetensors file its header length would be " + std::to_string(n) + ")";
  }
  return what;
}

// version https://git-lfs.github.com/spec/v1 / oid sha256:<hex> / size <n>, one key a line.
std::optional<LfsPointerInfo> parse_lfs_pointer(std::string_view text) {
  LfsPointerInfo info;
  bool any = false;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.starts_with("oid ")) {
      info.oid = std::string(line.substr(4, 80));
      any = true;
    } else if (line.starts_with("size ")) {
      const std::string_view digits = line.substr(5);
      if (!digits.empty() && digits.size() <= 19 &&
          std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        info.size = std::stoull(std::string(digits));
      any = true;
    }
  }
  if (!any) return LfsPointerInfo{};
  return info;
}

}  // namespace tensorgate::detail::kind
