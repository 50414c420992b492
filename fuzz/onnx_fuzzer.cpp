// The ONNX validator (core/src/onnx) over any bytes: the input's first bytes choose chunk
// boundaries (fuzz_support.hpp, Split), the rest is the model. The report invariants hold; whole,
// cut, with the size announced and not, the report is the same; the writers take its summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_onnx_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::onnx, "onnx-format");
  tgfuzz::check_chunking([] { return tensorgate::make_onnx_validator(); }, s);
  tgfuzz::check_writers({{"model.onnx", report, std::nullopt}});
  return 0;
}
