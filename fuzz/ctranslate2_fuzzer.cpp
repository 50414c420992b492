// The CTranslate2 validator (core/src/ctranslate2) over any bytes: the input's first bytes choose
// chunk boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold;
// whole, cut, with the size announced and not, with every variable's data skipped, the report is
// the same (with the default bounds and with small ones, and through detection too); every
// finding is a CTR one; under a memory budget it is that report or aborted; the writers take its
// summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_ctranslate2_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::ctranslate2, "ctranslate2-format");
  const auto* summary = report.summary.get<tensorgate::CTranslate2Summary>();
  tgfuzz::require(!report.valid || summary, "valid-without-summary");
  if (summary) {
    const tensorgate::Limits defaults;
    tgfuzz::require(summary->binary_version >= 1 && summary->binary_version <= 6, "binary-version");
    tgfuzz::require(summary->variables.size() <= defaults.ctranslate2.max_listed_variables, "variables-bounded");
    tgfuzz::require(summary->variables.size() + summary->variables_not_listed <= summary->variable_count, "variables-counted");
    tgfuzz::require(summary->aliases.size() + summary->aliases_not_listed <= summary->alias_count, "aliases-counted");
    tgfuzz::require(summary->total_bytes <= report.bytes_seen || !report.valid, "data-within-file");
    for (const auto& var : summary->variables) tgfuzz::require(var.shape.size() <= 255, "rank-is-a-byte");
  }
  for (const auto& f : report.findings)
    tgfuzz::require(tensorgate::rule_info(f.rule).family == "CTR", "ctranslate2-findings-are-ctr");
  tgfuzz::check_chunking([] { return tensorgate::make_ctranslate2_validator(); }, s);

  tensorgate::Limits small;
  small.ctranslate2.max_variables = 4;
  small.ctranslate2.max_aliases = 2;
  small.ctranslate2.max_name_bytes = 64;  // real names pass, so the small lists fill
  small.ctranslate2.max_listed_variables = 2;
  tgfuzz::check_chunking([&] { return tensorgate::make_ctranslate2_validator(small); }, s);

  // Through detection, FK.polyglot's window at the end is kept out of the runs it offers.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.bin", {}); };
  const std::string through_detection = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_skipping(detected, s, true)) == through_detection, "detected-skippable-invariant");
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_ctranslate2_validator({}, b); },
                                   s, capacity, report);
  tgfuzz::check_writers({{"model.bin", report, std::nullopt}});
  return 0;
}
