// The tar validator (core/src/tar) over any bytes, with the pickle and .npy scanners behind it
// for the members: the input's first bytes choose chunk boundaries (fuzz_support.hpp, Split),
// the rest is the archive. The report invariants hold, and whole, cut, with the total size
// announced and with the counted data skipped, the report is the same; the report writers take
// every summary.
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
  tgfuzz::check_writers({{"input.tar", report, std::nullopt}});
  return 0;
}
