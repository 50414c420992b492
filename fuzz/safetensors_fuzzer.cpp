// The whole input through the safetensors validator. For every valid input, the canonical
// writer's re-serialization of what was parsed must validate, be canonical, and summarize the
// same; and a canonical input must be its own re-serialization.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/safetensors/writer.hpp"

namespace {

void check_rewrite(std::string_view input, const tensorgate::Report& report) {
  const auto& summary = *report.summary.get<tensorgate::SafetensorsSummary>();
  const std::string_view data = input.substr(8 + summary.header_length);
  const auto rewritten = tensorgate::rewrite_canonical(
      *summary.tensors, std::as_bytes(std::span<const char>(data.data(), data.size())));
  tgfuzz::require(rewritten.ok(), "rewrite-succeeds", rewritten.error);
  const auto again = tensorgate::validate_safetensors(rewritten.bytes);
  tgfuzz::require(again.valid, "rewrite-is-valid", tgfuzz::render(again));
  tgfuzz::require(again.canonical == true, "rewrite-is-canonical", tgfuzz::render(again));
  const auto& s2 = *again.summary.get<tensorgate::SafetensorsSummary>();
  tgfuzz::require(s2.tensor_count == summary.tensor_count && s2.parameters == summary.parameters &&
                      s2.bytes == summary.bytes && s2.data_length == summary.data_length &&
                      s2.by_dtype.size() == summary.by_dtype.size(),
                  "rewrite-summarizes-the-same");
  if (*report.canonical)
    tgfuzz::require(rewritten.bytes == input, "canonical-input-is-its-own-rewrite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = tgfuzz::as_text(data, size);
  const auto report = tensorgate::validate_safetensors(input);
  tgfuzz::check_report_invariants(report);
  if (report.valid) check_rewrite(input, report);
  return 0;
}
