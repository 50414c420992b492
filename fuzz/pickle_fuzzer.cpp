// The pickle scanner (core/src/pickle) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the stream. The report invariants hold;
// whole, cut, with the total size announced and with the counted tail skipped, the report is
// the same, with the default bounds and with small ones (every capacity answer, the collection
// of kept strings); detection, when it takes the bytes for a pickle, only adds file-kind
// findings; the report writers take every summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/pickle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  const tensorgate::Report report = tensorgate::validate_pickle(s.file);
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::pickle, "pickle-format");
  tgfuzz::require(report.summary.get<tensorgate::PickleSummary>() != nullptr, "pickle-has-summary");
  tgfuzz::check_chunking([] { return tensorgate::make_pickle_validator(); }, s);

  // Small bounds, so that a fuzzed input reaches every one and the collection of kept strings
  // and tuples (a 1 KiB pool collects after ~1 KiB kept): the same invariants, chunking too.
  tensorgate::Limits small;
  small.pickle.max_kept_bytes = 2048;
  small.pickle.max_stack = 64;
  small.pickle.max_memo = 64;
  small.pickle.max_globals = 4;
  small.pickle.max_tensors = 2;
  small.pickle.max_storages = 2;
  const tensorgate::Report bounded = tensorgate::validate_pickle(s.file, small);
  tgfuzz::check_report_invariants(bounded);
  tgfuzz::check_chunking([&] { return tensorgate::make_pickle_validator(small); }, s);
  tgfuzz::check_writers({{"input.pkl", report, std::nullopt}, {"bounded.pkl", bounded, std::nullopt}});

  auto detected = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "input.pkl", {}, nullptr);
  detected->feed(s.file);
  tensorgate::Report d = detected->finish();
  tgfuzz::check_report_invariants(d);
  if (d.format == tensorgate::Format::pickle) {
    std::erase_if(d.findings, [](const tensorgate::Finding& f) { return tensorgate::rule_info(f.rule).family == "FK"; });
    d.valid = report.valid;
    d.findings_dropped = report.findings_dropped;
    tgfuzz::require(tgfuzz::render(d) == tgfuzz::render(report), "detection-adds-only-file-kind-findings");
  }
  return 0;
}
