// The ONNX facts of the text report: ", IR 8, opset 13, 2 nodes, 2 initializers, 15 parameters
// (FLOAT), 1 external file".
#include "common/text_counts.hpp"
#include "onnx/report_writers.hpp"

namespace tensorgate::detail {

std::string onnx_text_facts(const OnnxSummary& s) {
  std::string line = ", IR " + std::to_string(s.ir_version);
  for (const OnnxOpset& o : s.opsets)
    if (o.domain.empty() || o.domain == "ai.onnx") line += ", opset " + std::to_string(o.version);
  line += ", " + plural(s.nodes, "node") + ", " + plural(s.initializers.size() + s.initializers_not_listed, "initializer") +
          ", " + plural(s.parameters, "parameter");
  std::string dtypes;
  for (const OnnxDtypeTotals& d : s.by_dtype) dtypes += (dtypes.empty() ? "" : " ") + d.dtype;
  if (!dtypes.empty()) line += " (" + dtypes + ")";
  if (const std::uint64_t files = s.external_files.size() + s.external_files_not_listed) line += ", " + plural(files, "external file");
  return line;
}

}  // namespace tensorgate::detail
