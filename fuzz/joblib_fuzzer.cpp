// joblib.dump files through the pickle scanner (core/src/pickle/pk_joblib.cpp), seeded with the
// writer's files (fuzz/make_joblib_seeds.py): wrapper states, dtypes, alignment pads and object
// arrays' own pickles. The input's first bytes choose chunk boundaries (fuzz_support.hpp). The
// report invariants hold; whole, cut, hinted, with the counted tail skipped and with every
// array's bytes sought over (bytes_skippable), the report is the same; an array's bytes are
// never more than the input holds.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/pickle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  const tensorgate::Report report = tensorgate::validate_pickle(s.file);
  tgfuzz::check_report_invariants(report);
  const auto* summary = report.summary.get<tensorgate::PickleSummary>();
  tgfuzz::require(summary != nullptr, "pickle-has-summary");
  tgfuzz::require(summary->joblib_array_bytes <= s.file.size(), "array-bytes-within-input");
  tgfuzz::check_chunking([] { return tensorgate::make_pickle_validator(); }, s);

  // Few tensors listed, so that arrays past the bound still count.
  tensorgate::Limits small;
  small.pickle.max_tensors = 1;
  small.pickle.max_kept_bytes = 2048;
  const tensorgate::Report bounded = tensorgate::validate_pickle(s.file, small);
  tgfuzz::check_report_invariants(bounded);
  tgfuzz::check_chunking([&] { return tensorgate::make_pickle_validator(small); }, s);
  tgfuzz::check_writers({{"input.joblib", report, std::nullopt}, {"bounded.joblib", bounded, std::nullopt}});
  return 0;
}
