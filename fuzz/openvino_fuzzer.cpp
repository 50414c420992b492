// The OpenVINO IR validator (core/src/openvino) over any bytes: the input's first bytes choose
// chunk boundaries (fuzz_support.hpp, Split), the rest is model.xml. The report invariants hold;
// whole, cut, with the size announced and not, the report is the same (with the default bounds
// and with small ones, and through detection too); every finding is OV's; under a memory budget
// it is that report or aborted; the pair check against a .bin of a size the input chooses adds
// only OV findings; the writers take its summary.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_openvino_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::openvino, "openvino-format");
  const auto* summary = report.summary.get<tensorgate::OpenVinoSummary>();
  tgfuzz::require(!report.valid || summary, "valid-without-summary");
  if (summary) {
    tgfuzz::require(summary->ir_version == 0 || summary->ir_version == 10 || summary->ir_version == 11, "ir-version");
    tgfuzz::require(summary->const_layers.size() <= tensorgate::Limits{}.openvino.max_listed_layers, "consts-bounded");
    tgfuzz::require(summary->const_layers.size() + summary->const_layers_not_listed == summary->consts, "consts-counted");
    tgfuzz::require(summary->ranges.size() == summary->consts, "ranges-kept");
  }
  for (const auto& f : report.findings) tgfuzz::require(tensorgate::rule_info(f.rule).family == "OV", "openvino-findings-are-ov");
  tgfuzz::check_chunking([] { return tensorgate::make_openvino_validator(); }, s);

  tensorgate::Limits small;
  small.openvino.max_depth = 6;
  small.openvino.max_layers = 4;
  small.openvino.max_attributes = 5;
  small.openvino.max_attribute_bytes = 16;
  small.openvino.max_xml_bytes = 512;
  small.openvino.max_listed_layers = 1;
  tgfuzz::check_chunking([&] { return tensorgate::make_openvino_validator(small); }, s);

  // Through detection.
  const auto detected = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.xml", {}); };
  const std::string whole = tgfuzz::render(tgfuzz::feed_chunked(detected, tgfuzz::Split{{}, s.file}, true, false));
  tgfuzz::require(tgfuzz::render(tgfuzz::feed_chunked(detected, s, false, false)) == whole, "detected-chunking-invariant");
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_openvino_validator({}, b); }, s,
                                   capacity, report);

  // The pair, against a .bin of a size the cuts choose.
  tensorgate::Report paired = report;
  using Kind = tensorgate::OpenVinoWeightsFacts::Kind;
  const std::uint64_t bin = s.cuts.size() > 1 ? std::uint64_t{s.cuts[1]} * 7 : 0;
  const Kind kind = s.cuts.size() > 2 && s.cuts[2] % 3 == 0 ? Kind::missing : s.cuts.size() > 2 && s.cuts[2] % 3 == 1 ? Kind::outside : Kind::regular;
  tensorgate::check_openvino_weights(paired, tensorgate::OpenVinoWeightsFacts{kind, bin, "model.bin"});
  tgfuzz::check_report_invariants(paired);
  for (const auto& f : paired.findings) tgfuzz::require(tensorgate::rule_info(f.rule).family == "OV", "pair-findings-are-ov");
  tgfuzz::require(!paired.valid || report.valid, "pair-never-makes-valid");
  tgfuzz::check_writers({{"model.xml", paired, std::nullopt}});
  return 0;
}
