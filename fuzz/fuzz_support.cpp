#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>

#include "tensorgate/report_writers.hpp"

namespace tgfuzz {

std::string render(const tensorgate::Report& report) {
  std::string out;
  tensorgate::JsonWriter w([&](std::string_view s) { out += s; });
  w.begin_object();
  tensorgate::write_report_fields(w, report, tensorgate::ReportOptions{});
  w.end_object();
  w.flush();
  return out;
}

void require(bool ok, std::string_view name, std::string_view detail) {
  if (ok) return;
  std::fprintf(stderr, "INVARIANT %.*s: %.*s\n", static_cast<int>(name.size()), name.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void check_report_invariants(const tensorgate::Report& r, bool finished) {
  bool errors = r.findings_dropped > 0 && !r.valid;
  for (const auto& f : r.findings) {
    errors = errors || f.severity == tensorgate::Severity::error;
    require(!f.message.empty(), "finding-has-message", tensorgate::rule_info(f.rule).id);
  }
  require(r.valid == (!errors && !r.aborted), "valid-iff-no-errors");
  if (finished) require(r.canonical.has_value() == (r.valid && r.safetensors.has_value()), "canonical-iff-valid");
  if (r.safetensors) {
    require(r.safetensors->tensor_count == r.safetensors->tensors->size(), "summary-count");
  }
}

}  // namespace tgfuzz
