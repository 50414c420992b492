// The zip walker (core/src/zip) over any bytes, with the pickle and .npy scanners behind it for
// the entries: the input's first bytes choose chunk boundaries (fuzz_support.hpp, Split), the
// rest is the archive. The report invariants hold, and whole, cut, with the total size
// announced and with the counted data skipped, the report is the same; a small memory budget
// may only abort it and is given back; under small limits it still holds together; the report
// writers take every summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/zip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  const tensorgate::Report report = tensorgate::validate_zip(s.file);
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::zip, "zip-format");
  tgfuzz::check_chunking([] { return tensorgate::make_zip_validator(); }, s);
  // From no room at all to a few MiB: the budget is taken a MiB at a time, so both sides of it.
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_zip_validator({}, b); }, s,
                                   capacity, report);
  // Small limits reach the caps real archives never do (entries, names, inflated bytes, bombs,
  // the listed storages): the report may differ, but it still holds together and is written.
  tensorgate::Limits small;
  small.zip.max_entries = 1 + s.cuts.size();
  small.zip.max_name_bytes_total = 64;
  small.zip.max_entry_bytes = 4096;
  small.zip.max_inflated_bytes = 8192;
  small.zip.bomb_floor_bytes = 2048;  // a bomb the size a fuzzer makes
  small.zip.bomb_ratio = 8;
  small.pickle.max_storages = 1;
  auto capped = tensorgate::make_zip_validator(small);
  const tensorgate::Report capped_report = tensorgate::validate_whole(*capped, s.file);
  tgfuzz::check_report_invariants(capped_report);
  tgfuzz::check_writers({{"input.zip", report, std::nullopt}, {"capped.zip", capped_report, std::nullopt}});
  return 0;
}
