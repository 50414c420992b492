// The tar facts of the text report: ", 3 members, torch.load's legacy tar layout, 2 pickles".
#include "common/text_counts.hpp"
#include "tar/report_writers.hpp"

namespace tensorgate::detail {

std::string tar_text_facts(const TarSummary& t) {
  std::string line = ", " + count_of(t.members, "member");
  if (t.torch_legacy) line += ", torch.load's legacy tar layout";
  if (!t.pickles.empty()) line += ", " + count_of(t.pickles.size() + t.pickles_not_listed, "pickle");
  return line;
}

}  // namespace tensorgate::detail
