// The whole input through the GGUF validator (and through format detection, which must pick
// GGUF for the magic): the report invariants hold, and a valid file's summary agrees with its
// findings.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/gguf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = tgfuzz::as_text(data, size);
  const auto report = tensorgate::validate_gguf(input);
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::gguf, "gguf-format");
  if (report.valid) tgfuzz::require(report.gguf.has_value(), "valid-gguf-has-summary");

  auto detected = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "input.gguf", {}, nullptr);
  detected->feed(input);
  tgfuzz::require(tgfuzz::render(detected->finish()) == tgfuzz::render(report), "detection-picks-gguf-by-name");
  return 0;
}
