// The pickle facts of the text report: ", protocol 2, 5 pickles (legacy torch.save), 4 globals
// (1 dangerous), 2 tensors".
#include "common/text_counts.hpp"
#include "pickle/report_writers.hpp"

namespace tensorgate::detail {

std::string pickle_text_facts(const PickleSummary& s) {
  std::string line;
  if (!s.compression.empty())
    line += ", " + s.compression + " compressed (" + std::to_string(s.compressed_bytes) + " bytes inflated to " +
            std::to_string(s.inflated_bytes) + ")";
  line += ", protocol " + std::to_string(s.protocol) + ", " + count_of(s.pickles, "pickle");
  if (s.legacy_torch) line += " (legacy torch.save)";
  if (s.joblib_arrays) line += ", " + count_of(s.joblib_arrays, "joblib array");
  std::uint64_t dangerous = 0, unknown = 0;
  for (const PickleGlobal& g : s.globals) {
    dangerous += g.verdict == GlobalVerdict::dangerous;
    unknown += g.verdict == GlobalVerdict::unknown;
  }
  line += ", " + count_of(s.globals.size() + s.globals_dropped, "global");
  if (dangerous || unknown) {
    line += " (";
    if (dangerous) line += std::to_string(dangerous) + " dangerous";
    if (dangerous && unknown) line += ", ";
    if (unknown) line += std::to_string(unknown) + " unknown";
    line += ")";
  }
  if (!s.tensors.empty()) line += ", " + count_of(s.tensors.size() + s.tensors_dropped, "tensor");
  return line;
}

}  // namespace tensorgate::detail
