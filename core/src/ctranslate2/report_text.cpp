// The CTranslate2 facts of the text report: ", binary version 6, \"WhisperSpec\" revision 3,
// 1,234 variables, 12 aliases, 1,550,000,000 parameters, 3,100,000,000 bytes".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "ctranslate2/report_writers.hpp"

namespace tensorgate::detail {

std::string ctranslate2_text_facts(const CTranslate2Summary& s) {
  std::string line = ", binary version " + std::to_string(s.binary_version);
  if (!s.spec_name.empty()) line += ", " + quoted(s.spec_name, 40) + " revision " + std::to_string(s.spec_revision);
  line += ", " + plural(s.variable_count, "variable");
  if (s.binary_version >= 3) line += ", " + commas(s.alias_count) + (s.alias_count == 1 ? " alias" : " aliases");
  return line + ", " + plural(s.parameters, "parameter") + ", " + plural(s.total_bytes, "byte");
}

}  // namespace tensorgate::detail
