// The whole input through the GGUF validator (and through format detection, which must pick
// GGUF for the magic, whatever the name, and add nothing but file-kind findings): the report
// invariants hold, and a valid file's summary agrees with its findings. The file is then the
// shards of a split set (the same bytes as shard 1 and 2 of 2, and as a GGUF-only model
// directory): the GS rules on whatever its split metadata says, verdict iff no error, and the
// writers take the reports.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/model_dir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = tgfuzz::as_text(data, size);
  const auto report = tensorgate::validate_gguf(input);
  tgfuzz::check_report_invariants(report);
  tgfuzz::require(report.format == tensorgate::Format::gguf, "gguf-format");
  if (report.valid) tgfuzz::require(report.summary.get<tensorgate::GgufSummary>() != nullptr, "valid-gguf-has-summary");

  // Detection picks GGUF for the magic whatever the name; it may only add file-kind findings.
  if (input.starts_with("GGUF")) {
    auto detected = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "input.gguf", {}, nullptr);
    detected->feed(input);
    tensorgate::Report d = detected->finish();
    tgfuzz::require(d.format == tensorgate::Format::gguf, "detection-picks-gguf-by-magic");
    std::erase_if(d.findings, [](const tensorgate::Finding& f) { return tensorgate::rule_info(f.rule).family == "FK"; });
    d.valid = report.valid;
    d.findings_dropped = report.findings_dropped;
    tgfuzz::require(tgfuzz::render(d) == tgfuzz::render(report), "detection-adds-only-file-kind-findings");
  }

  const auto verdict_is_no_error = [](const tensorgate::DirectoryReport& r) {
    bool errors = r.findings_dropped > 0;
    for (const auto& f : r.findings) errors = errors || f.severity == tensorgate::Severity::error;
    tgfuzz::require(!r.valid || !errors, "split-set-valid-means-no-error");
  };
  tensorgate::GgufFileFacts first = tensorgate::gguf_facts_of("m-00001-of-00002.gguf", report);
  tensorgate::GgufFileFacts second = first;
  second.name = "m-00002-of-00002.gguf";
  const tensorgate::DirectoryReport sets = tensorgate::check_split_set_files({first, second});
  verdict_is_no_error(sets);
  tensorgate::ModelDirectory dir;
  dir.file_names = {first.name, second.name};
  dir.weights = {tensorgate::inventory_of(first.name, report), tensorgate::inventory_of(second.name, report)};
  dir.gguf = {first, second};
  const tensorgate::DirectoryReport model = tensorgate::check_model_directory(dir);
  verdict_is_no_error(model);
  tgfuzz::check_writers({{"input.gguf", report, std::nullopt},
                         {"m-*-of-00002.gguf", std::nullopt, std::nullopt, sets},
                         {"model", std::nullopt, std::nullopt, model}});
  return 0;
}
