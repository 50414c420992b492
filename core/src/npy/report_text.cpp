// The .npy facts of the text report: ", <f4 (2, 3)", and whether it is an object array.
#include "common/printable.hpp"
#include "npy/report_writers.hpp"

namespace tensorgate::detail {

std::string npy_text_facts(const NpySummary& s) {
  std::string shape;
  for (const std::uint64_t d : s.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
  return ", " + printable(s.descr) + " (" + shape + ")" + (s.object ? ", an object array (a pickle)" : "");
}

}  // namespace tensorgate::detail
