#include "entry_list.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>

#include "file_source.hpp"

namespace tensorgate::cli {
namespace {

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  const std::size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpace) - begin + 1);
}

std::optional<std::uint32_t> decimal(std::string_view s) {
  std::uint32_t v = 0;
  if (s.empty() || s.size() > 7) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::vector<std::string>> read_list(const std::string& path, std::string& error) {
  SequentialFile in(path);
  if (!in.is_open()) {
    error = "--list " + path + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  std::vector<std::string> entries;
  std::string line;  // never longer than kMaxListLine + 1: a file without newlines is not held whole
  std::uint64_t number = 1;
  auto end_line = [&] {
    const std::string_view entry = trim(line);
    if (!entry.empty() && entry.front() != '#') entries.emplace_back(entry);
    line.clear();
    ++number;
  };
  constexpr std::size_t kChunk = 64 << 10;
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  for (;;) {
    const std::optional<std::size_t> n = in.read({buffer.get(), kChunk});
    if (!n) {
      error = "--list " + path + ": cannot read";
      return std::nullopt;
    }
    if (*n == 0) break;
    for (const char c : std::string_view(buffer.get(), *n)) {
      if (c == '\n') {
        end_line();
        continue;
      }
      if (line.size() == kMaxListLine) {
        error = "--list " + path + ": line " + std::to_string(number) + " is longer than " +
                std::to_string(kMaxListLine) + " bytes";
        return std::nullopt;
      }
      line += c;
    }
  }
  end_line();
  return entries;
}

std::optional<Shard> parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto k = decimal(text.substr(0, slash)), n = decimal(text.substr(slash + 1));
  if (!k || !n || *n == 0 || *n > kMaxShards || *k >= *n) return std::nullopt;
  return Shard{*k, *n};
}

std::vector<std::string> select_shard(const std::vector<std::string>& entries, Shard shard) {
  std::vector<std::string> out;
  for (std::size_t i = shard.index; i < entries.size(); i += shard.count) out.push_back(entries[i]);
  return out;
}

}  // namespace tensorgate::cli
