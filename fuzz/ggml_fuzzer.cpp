// The legacy GGML validator (core/src/ggml) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold; whole,
// cut, with the size announced and not, with every offered data run skipped, the report is the
// same (with the default bounds and with small ones, and through detection too); under a memory
// budget it is that report or aborted; every finding is GL's; the writers take its summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_ggml_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::ggml, "ggml-format");
  const auto* summary = report.summary.get<tensorgate::GgmlSummary>();
  tgfuzz::require(!report.valid || summary, "valid-without-summary");
  if (summary) {
    tgfuzz::require(summary->tensors.size() <= tensorgate::Limits{}.ggml.max_listed_tensors, "tensors-bounded");
    tgfuzz::require(summary->tensors.size() + summary->tensors_not_listed == summary->tensor_count, "tensors-counted");
    tgfuzz::require(!summary->kind.empty(), "summary-without-kind");
    for (const auto& t : summary->tensors) tgfuzz::require(t.offset + t.bytes >= t.offset, "tensor-end-overflows");
  }
  if (report.valid) {
    // A valid file ends where its last tensor's data does.
    tgfuzz::require(summary->tensor_count > 0, "valid-without-tensors");
    if (!summary->tensors.empty() && summary->tensors_not_listed == 0)
      tgfuzz::require(summary->tensors.back().offset + summary->tensors.back().bytes == s.file.size(), "valid-ends-at-data");
  }
  for (const auto& f : report.findings) tgfuzz::require(tensorgate::rule_info(f.rule).family == "GL", "ggml-findings-are-gl");
  tgfuzz::check_chunking([] { return tensorgate::make_ggml_validator(); }, s);

  tensorgate::Limits small;
  small.ggml.max_vocab = 8;
  small.ggml.max_token_bytes = 16;
  small.ggml.max_tensors = 6;
  small.ggml.max_name_bytes = 24;
  small.ggml.max_mel_floats = 64;
  small.ggml.max_listed_tensors = 2;
  tgfuzz::check_chunking([&] { return tensorgate::make_ggml_validator(small); }, s);

  // Through detection, FK.polyglot's window at the end is kept out of the runs it offers.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.bin", {}); };
  const std::string through_detection = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_skipping(detected, s, true)) == through_detection, "detected-skippable-invariant");
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 10;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_ggml_validator({}, b); }, s,
                                   capacity, report);
  tgfuzz::check_writers({{"model.bin", report, std::nullopt}});
  return 0;
}
