// The Flax facts of the text report: ", 199 arrays, 109,482,240 parameters in 437,928,960
// bytes, 1 scalar, top-level keys \"params\"".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "flax/report_writers.hpp"

namespace tensorgate::detail {

std::string flax_text_facts(const FlaxSummary& s) {
  std::string line = ", " + plural(s.arrays_total, "array") + ", " + plural(s.parameters, "parameter") + " in " +
                     plural(s.total_bytes, "byte") + ", " + plural(s.scalars, "scalar");
  if (s.top_level_keys_total == 0) return line;
  line += ", top-level keys";
  for (std::size_t i = 0; i < s.top_level_keys.size() && i < 4; ++i) line += (i ? ", " : " ") + quoted(s.top_level_keys[i], 30);
  if (s.top_level_keys_total > 4) line += ", ...";
  return line;
}

}  // namespace tensorgate::detail
