// The HDF5 validator (core/src/hdf5) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold; whole,
// cut, with the size announced and not, with every run between the regions it reads skipped, the
// report is the same (with the default bounds and with small ones, and through detection too);
// under a memory budget it is that report or aborted; the writers take its summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_hdf5_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::hdf5, "hdf5-format");
  const auto* summary = report.summary.get<tensorgate::Hdf5Summary>();
  tgfuzz::require(!report.valid || summary, "valid-without-summary");
  if (summary) {
    tgfuzz::require(summary->attributes.size() <= tensorgate::Limits{}.hdf5.max_listed_attributes, "attributes-bounded");
    tgfuzz::require(summary->superblock_version <= 3, "superblock-version");
    tgfuzz::require(!summary->model || summary->keras, "model-without-keras");
  }
  for (const auto& f : report.findings) tgfuzz::require(tensorgate::rule_info(f.rule).family == "KR", "hdf5-findings-are-kr");
  tgfuzz::check_chunking([] { return tensorgate::make_hdf5_validator(); }, s);

  tensorgate::Limits small;
  small.hdf5.max_metadata_bytes = 1 << 14;
  small.hdf5.max_attribute_bytes = 256;
  small.hdf5.max_attributes = 4;
  small.hdf5.max_continuations = 2;
  small.hdf5.max_header_messages = 8;
  small.hdf5.max_user_block = 1024;
  small.hdf5.max_listed_attributes = 2;
  small.keras.max_depth = 6;
  tgfuzz::check_chunking([&] { return tensorgate::make_hdf5_validator(small); }, s);

  // Through detection, FK.polyglot's window at the end is kept out of the runs it offers.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "m.h5", {}); };
  const std::string through_detection = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_skipping(detected, s, true)) == through_detection, "detected-skippable-invariant");
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_hdf5_validator({}, b); }, s,
                                   capacity, report);
  tgfuzz::check_writers({{"model.h5", report, std::nullopt}});
  return 0;
}
