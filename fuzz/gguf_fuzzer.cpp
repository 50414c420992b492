// The whole input through the GGUF validator (and through format detection, which must pick
// GGUF for the magic, whatever the name, and add nothing but file-kind findings): the report
// invariants hold, and a valid file's summary agrees with its findings.
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

  // Detection picks GGUF for the magic whatever the name; it may only add file-kind findings.
  if (input.starts_with("GGUF")) {
    auto detected = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "input.gguf", {}, nullptr);
    detected->feed(input);
    tensorgate::Report d = detected->finish();
    tgfuzz::require(d.format == tensorgate::Format::gguf, "detection-picks-gguf-by-magic");
    std::erase_if(d.findings, [](const tensorgate::Finding& f) { return tensorgate::rule_info(f.rule).family == "FK"; });
    d.valid = report.valid;
    d.findings_dropped = report.findings_dropped;
    tgfuzz::require(tgfuzz::render(d) == tgfuzz::render(report), "detection-adds-only-file-kind-findings");
  }
  return 0;
}
