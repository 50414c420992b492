// The tar validator (core/src/tar) over any bytes, with the pickle and .npy scanners behind it
// for the members: the input's first bytes choose chunk boundaries (fuzz_support.hpp, Split),
// the rest is the archive. The report invariants hold, and whole, cut, with the total size
// announced and with the counted data skipped, the report is the same; a small memory budget
// may only abort it and is given back; the report writers take every summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_tar_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::tar, "tar-format");
  tgfuzz::check_chunking([] { return tensorgate::make_tar_validator(); }, s);
  // From no room at all to a few MiB: the budget is taken a MiB at a time, so both sides of it.
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_tar_validator({}, b); }, s,
                                   capacity, report);
  tgfuzz::check_writers({{"input.tar", report, std::nullopt}});
  return 0;
}
