// The SavedModel validator (core/src/savedmodel) over any bytes: the input's first bytes choose
// chunk boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold;
// whole, cut, with the size announced and not, the report is the same; the writers take its
// summary. The same bytes go through content detection (the SavedModel probe), and through the
// variables check as a directory's variables.index, with shards made up from the bytes.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/validator.hpp"

namespace {

// Shards whose names and sizes follow from the input, so that matching, missing, misnamed and
// short shards are all met.
tensorgate::SavedModelVariables made_up_variables(std::string_view bytes) {
  tensorgate::SavedModelVariables vars;
  vars.folder = true;
  vars.index = std::string(bytes);
  const std::size_t n = bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]) % 4;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = bytes.size() > i + 1 ? static_cast<unsigned char>(bytes[i + 1]) : 0;
    vars.shards.push_back({"variables.data-0000" + std::to_string(i) + "-of-0000" + std::to_string(1 + b % 3), b * 16u});
  }
  return vars;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  auto v = tensorgate::make_savedmodel_validator();
  v->feed(s.file);
  const tensorgate::Report report = v->finish();
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::savedmodel, "savedmodel-format");
  tgfuzz::check_chunking([] { return tensorgate::make_savedmodel_validator(); }, s);
  tgfuzz::check_writers({{"saved_model.pb", report, std::nullopt}});

  // A SavedModel by content only where it starts as one (08 01 12) or as Keras's object list (0a).
  if (tensorgate::detect_kind(s.file).format == tensorgate::Format::savedmodel)
    tgfuzz::require(s.file.starts_with(std::string_view("\x08\x01\x12", 3)) || s.file.starts_with('\x0a'),
                    "savedmodel-detected-without-its-start");

  std::vector<tensorgate::Finding> findings;
  const tensorgate::Limits limits;
  const auto vars = made_up_variables(s.file);
  const tensorgate::SavedModelDirectorySummary dir = tensorgate::check_savedmodel_variables(vars, limits, findings);
  tgfuzz::require(findings.size() <= limits.max_findings, "variables-findings-bounded");
  for (const tensorgate::Finding& f : findings) tgfuzz::require(f.rule == tensorgate::Rule::tf_variables, "variables-rule");
  tgfuzz::require(dir.variables <= s.file.size(), "variables-bounded-by-index");
  return 0;
}
