// The safetensors facts of the text report: ", 291 tensors, 8,030,261,248 parameters (BF16),
// llama 32 layers".
#include "common/text_counts.hpp"
#include "safetensors/report_writers.hpp"

namespace tensorgate::detail {

std::string safetensors_text_facts(const SafetensorsSummary& s) {
  std::string line = ", " + plural(s.tensor_count, "tensor") + ", " + plural(s.parameters, "parameter");
  std::string dtypes;
  for (const DtypeTotals& t : s.by_dtype) dtypes += (dtypes.empty() ? "" : " ") + std::string(dtype_info(t.dtype).name);
  if (!dtypes.empty()) line += " (" + dtypes + ")";
  if (s.architecture) line += ", " + *s.architecture;
  if (s.layers) line += " " + plural(*s.layers, "layer");
  return line;
}

}  // namespace tensorgate::detail
