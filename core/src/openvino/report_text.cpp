// The OpenVINO IR facts of the text report: ", IR v11 \"model\", 12 layers, 3 Consts of 1,024
// bytes, .bin 1,024 bytes, custom opsets \"my_ops\"".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "openvino/report_writers.hpp"

namespace tensorgate::detail {

std::string openvino_text_facts(const OpenVinoSummary& s) {
  std::string line = ", IR v" + std::to_string(s.ir_version);
  if (!s.net_name.empty()) line += " " + quoted(s.net_name, 40);
  line += ", " + plural(s.layers, "layer") + ", " + plural(s.consts, "Const") + " of " + plural(s.const_bytes, "byte");
  if (s.bin_size) line += ", .bin " + plural(*s.bin_size, "byte");
  if (!s.custom_opsets.empty()) {
    line += ", custom opsets";
    for (std::size_t i = 0; i < s.custom_opsets.size() && i < 4; ++i) line += (i ? ", " : " ") + quoted(s.custom_opsets[i], 30);
    if (s.custom_opsets.size() > 4) line += ", ...";
  }
  return line;
}

}  // namespace tensorgate::detail
