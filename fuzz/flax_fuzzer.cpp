// The Flax validator (core/src/flax) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold; whole,
// cut, with the size announced and not, with every buffer it offers skipped, the report is the
// same (with the default bounds and with small ones, and through detection too); under a memory
// budget it is that report or aborted; the writers take its summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_flax_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::flax, "flax-format");
  const auto* summary = report.summary.get<tensorgate::FlaxSummary>();
  tgfuzz::require(!report.valid || summary, "valid-without-summary");
  if (summary) {
    tgfuzz::require(summary->arrays.size() <= tensorgate::Limits{}.flax.max_listed_arrays, "arrays-bounded");
    tgfuzz::require(summary->arrays.size() + summary->arrays_not_listed == summary->arrays_total, "arrays-counted");
    tgfuzz::require(summary->top_level_keys.size() <= tensorgate::FlaxSummary::kMaxTopLevelKeys, "keys-bounded");
    tgfuzz::require(summary->max_depth <= tensorgate::Limits{}.flax.max_depth, "depth-bounded");
    for (const auto& a : summary->arrays)
      tgfuzz::require(!report.valid || a.offset + a.bytes <= s.file.size(), "array-inside-file");
  }
  for (const auto& f : report.findings) tgfuzz::require(tensorgate::rule_info(f.rule).family == "FX", "flax-findings-are-fx");
  tgfuzz::check_chunking([] { return tensorgate::make_flax_validator(); }, s);

  tensorgate::Limits small;
  small.flax.max_depth = 4;
  small.flax.max_container_entries = 8;
  small.flax.max_key_bytes = 4;
  small.flax.max_ext_header_bytes = 12;
  small.flax.max_listed_arrays = 2;
  tgfuzz::check_chunking([&] { return tensorgate::make_flax_validator(small); }, s);

  // Through detection, FK.polyglot's window at the end is kept out of the runs it offers.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "flax_model.msgpack", {}); };
  const std::string through_detection = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_skipping(detected, s, true)) == through_detection, "detected-skippable-invariant");
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 8;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_flax_validator({}, b); }, s,
                                   capacity, report);
  tgfuzz::check_writers({{"flax_model.msgpack", report, std::nullopt}});
  return 0;
}
