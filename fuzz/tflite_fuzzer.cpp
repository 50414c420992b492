// The TFLite validator (core/src/tflite) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold; whole,
// cut, with the size announced and not, with every run of tensor data skipped, the report is the
// same (with the default bounds and with small ones, and through detection too); under a memory
// budget it is that report or aborted; every finding is TFL's; the writers take its summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_tflite_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::tflite, "tflite-format");
  const auto* summary = report.summary.get<tensorgate::TfliteSummary>();
  tgfuzz::require(!report.valid || summary, "valid-without-summary");
  if (summary) {
    const tensorgate::Limits defaults;
    tgfuzz::require(summary->tensors.size() <= defaults.tflite.max_listed_tensors, "tensors-bounded");
    tgfuzz::require(summary->external_buffers <= summary->buffers, "external-buffers");
  }
  for (const auto& f : report.findings) tgfuzz::require(tensorgate::rule_info(f.rule).family == "TFL", "tflite-findings-are-tfl");
  tgfuzz::check_chunking([] { return tensorgate::make_tflite_validator(); }, s);

  tensorgate::Limits small;
  small.tflite.max_flatbuffer_bytes = 1 << 12;
  small.tflite.max_depth = 3;
  small.tflite.max_tables = 16;
  small.tflite.max_listed_tensors = 2;
  tgfuzz::check_chunking([&] { return tensorgate::make_tflite_validator(small); }, s);

  // Through detection, FK.polyglot's window at the end is kept out of the runs it offers.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "m.tflite", {}); };
  const std::string through_detection = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_skipping(detected, s, true)) == through_detection, "detected-skippable-invariant");
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 10;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_tflite_validator({}, b); }, s,
                                   capacity, report);
  tgfuzz::check_writers({{"model.tflite", report, std::nullopt}});
  return 0;
}
