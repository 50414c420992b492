// The TFLite facts of the text report: ", schema v3, 1 subgraph, 2 operator codes (1 custom),
// 7 tensors, 1,234 parameters".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "tflite/report_writers.hpp"

namespace tensorgate::detail {

std::string tflite_text_facts(const TfliteSummary& s) {
  std::uint64_t custom = 0;
  for (const TfliteOperatorCode& o : s.operator_codes) custom += o.custom ? 1 : 0;
  std::string line = ", schema v" + std::to_string(s.version) + ", " + plural(s.subgraphs.size() + s.subgraphs_not_listed, "subgraph") + ", " +
                     plural(s.operator_codes.size() + s.operator_codes_not_listed, "operator code");
  if (custom) line += " (" + std::to_string(custom) + " custom)";
  line += ", " + plural(s.tensors.size() + s.tensors_not_listed, "tensor") + ", " + plural(s.parameters, "parameter");
  if (s.external_buffers) line += ", " + plural(s.external_buffers, "buffer") + " past the flatbuffer";
  return line;
}

}  // namespace tensorgate::detail
