#pragma once
// Names compared as loaders compare them where they fold case. Python's zipfile and tarfile
// compare bytes; PyTorch's reader finds a zip record with miniz's mz_zip_reader_locate_file(...,
// flags 0), which folds ASCII case (and only ASCII: MZ_TOLOWER), so "archive/DATA.PKL" is what
// it reads for "archive/data.pkl".
#include <string>
#include <string_view>

namespace tensorgate::detail {

constexpr char fold_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool same_name_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (fold_ascii(a[i]) != fold_ascii(b[i])) return false;
  return true;
}

constexpr bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && same_name_nocase(s.substr(0, prefix.size()), prefix);
}

inline std::string folded(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = fold_ascii(c);
  return out;
}

}  // namespace tensorgate::detail
