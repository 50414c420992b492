#include "report/directory_text.hpp"

#include "common/printable.hpp"

namespace tensorgate::detail {

std::string other_files_line(const DirectorySummary& s) {
  if (s.other_files.empty()) return {};
  constexpr std::size_t kShown = 20;
  std::string line = "  no weights:";
  for (std::size_t i = 0; i < s.other_files.size() && i < kShown; ++i)
    line += (i ? ", " : " ") + printable(s.other_files[i].name);
  if (s.other_files.size() > kShown) line += ", and " + std::to_string(s.other_files.size() - kShown) + " more";
  return line + "\n";
}

}  // namespace tensorgate::detail
