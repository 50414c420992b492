// The input is header text only: wrapped with a valid length prefix, and followed by a data
// section of exactly the length its offsets declare (skipped, not allocated), so the fuzzer
// spends its time in the JSON and schema logic rather than on ST1 and ST5.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > tensorgate::kSafetensorsMaxHeader) return 0;
  std::string prefix(8, '\0');
  for (int i = 0; i < 8; ++i) prefix[static_cast<std::size_t>(i)] = static_cast<char>((size >> (8 * i)) & 0xff);
  const std::string_view header = tgfuzz::as_text(data, size);

  // First pass: what data length do the offsets declare?
  auto probe = tensorgate::make_safetensors_validator();
  probe->feed(prefix);
  probe->feed(header);
  const auto first = probe->snapshot();
  tgfuzz::check_report_invariants(first, false);
  if (!first.summary.get<tensorgate::SafetensorsSummary>()) return 0;

  const std::uint64_t data_length = first.summary.get<tensorgate::SafetensorsSummary>()->data_length;
  auto v = tensorgate::make_safetensors_validator();
  v->set_total_size(8 + size + data_length);
  v->feed(prefix);
  v->feed(header);
  v->skip(data_length);
  const auto report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(!report.has("ST1") && !report.has("ST5.truncated") && !report.has("ST5.trailing-bytes"),
                  "declared-data-length-fits", tgfuzz::render(report));
  return 0;
}
