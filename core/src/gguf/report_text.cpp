// The GGUF facts of the text report:
// ", v3, 291 tensors, 8,030,261,248 parameters (F32 Q4_K Q6_K), llama 32 blocks, Q4_K_M".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "gguf/report_writers.hpp"

namespace tensorgate::detail {

std::string gguf_text_facts(const GgufSummary& s) {
  std::string line = ", v" + std::to_string(s.version) + (s.big_endian ? " big-endian" : "") + ", " +
                     plural(s.tensor_count, "tensor") + ", " + plural(s.parameters, "parameter");
  std::string types;
  for (const GgmlTypeTotals& t : s.by_type) {
    const GgmlTypeInfo* info = ggml_type_info(t.type);
    types += (types.empty() ? "" : " ") + std::string(info ? info->name : "?");
  }
  if (!types.empty()) line += " (" + types + ")";
  if (s.architecture) {
    const std::string q = quoted(*s.architecture);  // printable, without its quotes
    line += ", " + q.substr(1, q.size() - 2);
  }
  if (s.block_count) line += " " + plural(*s.block_count, "block");
  if (s.file_type && !gguf_file_type_name(*s.file_type).empty()) line += ", " + std::string(gguf_file_type_name(*s.file_type));
  return line;
}

}  // namespace tensorgate::detail
