// The ONNX validator (core/src/onnx) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the model. The report invariants hold; whole,
// cut, with the size announced and not, with every run of raw data it offers skipped, the report
// is the same (and through detection too); under a memory budget it is that report or aborted;
// the writers take its summary.
// The same bytes go through content detection (the ONNX probe), and the report's external files
// through the directory rules with what a made-up directory holds at each location.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/validator.hpp"

namespace {

// A directory whose answer for a location follows from the location's bytes, so that every kind
// of answer is met.
tensorgate::ExternalFileFacts made_up_facts(std::string_view location) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : location) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdull;  // mixed, so that similar names get unrelated answers
  h ^= h >> 33;
  using Kind = tensorgate::ExternalFileFacts::Kind;
  constexpr Kind kKinds[] = {Kind::regular, Kind::missing, Kind::not_regular, Kind::symlink};
  return {kKinds[h % 4], (h >> 8) % 4096, 1 + (h >> 20) % 3};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_onnx_validator();
  v->feed(s.file);
  tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::onnx, "onnx-format");
  tgfuzz::check_chunking([] { return tensorgate::make_onnx_validator(); }, s);
  // Through detection, FK.polyglot's window at the end is kept out of the runs it offers.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "m.onnx", {}); };
  const std::string through_detection = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_skipping(detected, s, true)) == through_detection, "detected-skippable-invariant");
  // From no room at all to a few MiB: the budget is taken a MiB at a time, so both sides of it.
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_onnx_validator({}, b); }, s,
                                   capacity, report);
  tgfuzz::check_writers({{"model.onnx", report, std::nullopt}});

  // ONNX by content only where it starts as a ModelProto does: ir_version (0x08) first.
  if (tensorgate::detect_kind(s.file).format == tensorgate::Format::onnx)
    tgfuzz::require(!s.file.empty() && s.file[0] == '\x08', "onnx-detected-without-ir-version");

  const std::size_t before = report.findings.size() + report.findings_dropped;
  tensorgate::check_external_files(report, made_up_facts);
  const std::size_t added = report.findings.size() + report.findings_dropped - before;
  const auto* summary = report.summary.get<tensorgate::OnnxSummary>();
  tgfuzz::require(added <= (summary ? summary->external_files.size() : 0), "external-findings-per-file");
  tgfuzz::require(added == 0 || !report.valid, "external-finding-left-valid");
  tgfuzz::check_report_invariants(report);
  return 0;
}
