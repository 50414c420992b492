// The model-directory JSON through the real code paths: the input is a /v1/check-model request
// body (config, index, per-file reports, other file names), checked with check_model_request,
// which parses it, reads each report's inventory and runs every MD, SH, AR and TL check; and the
// same documents as a directory the CLI would list (config.json and the index text, whole).
// Invariants: no crash, hang or unbounded memory; an answer is a report or an error, never both;
// the verdict is "no error finding"; the budget is released whatever happens; a budget too
// small for the document is a refusal, never a verdict; the directory reports' JSON, SARIF and
// text writers take whatever the checks found.
#include <algorithm>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/model_dir.hpp"

namespace {

void check(const tensorgate::CheckModelResult& r) {
  tgfuzz::require(r.report.has_value() != !r.error.empty(), "report-xor-error", r.error);
  if (!r.report) return;
  bool errors = false;
  for (const auto& f : r.report->findings) errors = errors || f.severity == tensorgate::Severity::error;
  tgfuzz::require(!(r.report->valid && errors), "valid-means-no-error");
  tgfuzz::require(r.report->valid || errors || r.report->findings_dropped > 0, "invalid-means-an-error");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tensorgate::Limits limits;
  limits.directory.max_json_bytes = 1 << 20;
  check(tensorgate::check_model_request(text, limits));

  // The same body under a small budget: refused (budget_refused) or answered, and nothing held.
  tensorgate::CountingBudget budget(64 << 10);
  const auto small = tensorgate::check_model_request(text, limits, &budget);
  check(small);
  tgfuzz::require(budget.held() == 0, "budget-released");
  tgfuzz::require(!small.budget_refused || !small.report, "refusal-is-no-verdict");

  // As a directory: the input's first half as config.json, the rest as the index.
  tensorgate::ModelDirectory dir;
  dir.config_json = std::string(text.substr(0, size / 2));
  dir.index_json = std::string(text.substr(size / 2));
  dir.file_names = {"config.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors"};
  dir.weights.push_back(tensorgate::FileInventory{"model-00001-of-00002.safetensors", true, {}, {}, {}});
  const tensorgate::DirectoryReport r = tensorgate::check_model_directory(dir, limits);
  tgfuzz::require(!r.valid || r.findings.empty() ||
                      std::none_of(r.findings.begin(), r.findings.end(),
                                   [](const auto& f) { return f.severity == tensorgate::Severity::error; }),
                  "directory-valid-means-no-error");
  std::vector<tensorgate::CheckedFile> written;
  written.push_back({"model", std::nullopt, std::nullopt, r});
  if (const auto answer = tensorgate::check_model_request(text, limits); answer.report)
    written.push_back({"request", std::nullopt, std::nullopt, *answer.report});
  tgfuzz::check_writers(written);
  return 0;
}
