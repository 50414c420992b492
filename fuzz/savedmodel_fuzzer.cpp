// The SavedModel validator (core/src/savedmodel) over any bytes: the input's first bytes choose
// chunk boundaries (fuzz_support.hpp, Split), the rest is the file. The report invariants hold;
// whole, cut, with the size announced and not, the report is the same; the writers take its
// summary; under tight limits and under a small memory budget the invariants hold and the budget
// is given back. The same bytes go through content detection (the SavedModel probe), and through the
// variables check as a directory's variables.index, with shards made up from the bytes.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/validator.hpp"

namespace {

// Shards whose names and sizes follow from the input's last bytes (a table's first bytes are
// its own), so that matching, missing, misnamed and short shards are all met; now and then no
// index at all, or one too large to read.
tensorgate::SavedModelVariables made_up_variables(std::string_view bytes, std::uint64_t graph_variables) {
  tensorgate::SavedModelVariables vars;
  vars.folder = true;
  vars.graph_variables = graph_variables;
  const auto at_end = [&](std::size_t i) { return bytes.size() > i ? static_cast<unsigned char>(bytes[bytes.size() - 1 - i]) : 0u; };
  const unsigned choice = (bytes.size() / 7) % 8;
  if (choice == 1) vars.index_too_large = true;
  else if (choice != 2) vars.index = std::string(bytes);
  const std::size_t n = bytes.size() % 4;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned b = at_end(8 + i);
    vars.shards.push_back({"variables.data-0000" + std::to_string(i) + "-of-0000" + std::to_string(1 + b % 3), b * 16u});
  }
  if (choice == 3) vars.shards.push_back({"variables.data-x", 1});
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

  // Tight bounds: the summary's lists full, a field past what is kept.
  tensorgate::Limits tight;
  tight.savedmodel.max_field_bytes = 256;
  tight.savedmodel.max_listed_ops = 2;
  tight.savedmodel.max_listed_values = 2;
  auto bounded = tensorgate::make_savedmodel_validator(tight);
  bounded->feed(s.file);
  tgfuzz::check_report_invariants(bounded->finish());
  // A small shared budget: the same report or aborted by it, and every byte given back.
  tensorgate::CountingBudget small(64 << 10);
  {
    auto budgeted = tensorgate::make_savedmodel_validator({}, &small);
    budgeted->feed(s.file);
    const tensorgate::Report r = budgeted->finish();
    tgfuzz::check_report_invariants(r);
    tgfuzz::require(r.aborted ? r.aborted->limit == "savedmodel-memory-budget" || r.aborted->limit == "savedmodel-field-bytes"
                              : r.valid == report.valid, "budget-same-or-aborted");
  }
  tgfuzz::require(small.held() == 0, "budget-given-back");

  std::vector<tensorgate::Finding> findings;
  const tensorgate::Limits limits;
  const auto* summary = report.summary.get<tensorgate::SavedModelSummary>();
  const auto vars = made_up_variables(s.file, summary ? tensorgate::savedmodel_graph_variables(*summary) : 0);
  const tensorgate::SavedModelDirectorySummary dir = tensorgate::check_savedmodel_variables(vars, limits, findings);
  tgfuzz::require(findings.size() <= limits.max_findings, "variables-findings-bounded");
  for (const tensorgate::Finding& f : findings) tgfuzz::require(f.rule == tensorgate::Rule::tf_variables, "variables-rule");
  tgfuzz::require(dir.variables <= s.file.size(), "variables-bounded-by-index");
  return 0;
}
